// The frames of a change without a room (room/fan_out.hpp): seats and spectators patched move by
// move through a recorded game keep views equal to their snapshots; a seat away keeps its
// patches for a resume; delayed spectators see the
// game `delay` moves behind and no events until the end.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "carcassonne/protocol/view.hpp"
#include "fake_client.hpp"
#include "room/fan_out.hpp"
#include "table/game_journal.hpp"

namespace {

using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using nlohmann::json;

struct fan_out_game {
  json setup;
  std::vector<std::string> moves;  // record form
};

fan_out_game fan_out_record(const std::string& name) {
  std::ifstream in(std::string(CARCASSONNE_SOURCE_DIR) + "/tests/records/" + name);
  const auto r = json::parse(in);
  fan_out_game out{r.at("setup"), {}};
  for (const auto& m : r.at("moves")) out.moves.push_back(m.dump());
  return out;
}

const std::string fan_out_room_part = R"({"id":"r1"})";
const std::string fan_out_events = R"([{"type":"placed"}])";

// A record's seats with their clients, a spectator, and a table whose game is at move `n` of the
// record (the journal those moves) after change(n).
struct fan_out_table {
  fan_out_game rec;
  game_table t;
  std::vector<std::string> names;
  std::vector<seat_slot> seats;
  std::vector<std::shared_ptr<fake_client>> clients;
  std::shared_ptr<fake_client> watcher = std::make_shared<fake_client>();
  std::uint64_t seq = 0;

  fan_out_table(const std::string& record, int delay) : rec(fan_out_record(record)), t(delay) {
    auto g = game_at_start(rec.setup);
    REQUIRE(g);
    seats.resize(g->seats);
    for (std::size_t i = 0; i < seats.size(); ++i) {
      names.push_back("P" + std::to_string(i));
      clients.push_back(std::make_shared<fake_client>());
      seats[i].taken = true;
      seats[i].name = names.back();
      seats[i].client = clients[i];
      snapshot(*clients[i], static_cast<int>(i));
    }
    snapshot(*watcher, -1);
    t.start(*g, names, rec.setup.dump(), "[]");
  }
  void snapshot(fake_client& c, int seat) {
    c.deliver(std::make_shared<const std::string>(
        R"({"type":"snapshot","seq":)" + std::to_string(seq) + R"(,"view":)" +
        view_text(fan_out_room_part, t, seats, seat) + "}"));
  }
  // The game at move n, then one change's frames.
  void change(std::size_t n) {
    if (n > 0) {
      auto g = game_at_start(rec.setup);
      t.journal.moves.assign(rec.moves.begin(), rec.moves.begin() + static_cast<long>(n));
      REQUIRE(replay(rec.setup, t.journal.moves, *g).empty());
      t.game = std::move(g);
    }
    ++seq;
    const bool appeared = game_appears(t);
    std::string ops;  // the room part does not change here
    update_public_view(t, appeared, ops);
    send_seat_patches(seats, t, seq, patch_head("r1", seq, fan_out_events), ops, appeared,
                      [](const client_ptr& c, frame_ptr f) { c->deliver(std::move(f)); });
    watcher->deliver(
        spectator_patch(t, "r1", seq, t.delayed.active(), fan_out_events, "", ops, appeared));
  }
  json view_of(int seat) { return json::parse(view_text(fan_out_room_part, t, seats, seat)); }
};

}  // namespace

TEST_CASE("fan_out: every member's patched view equals its snapshot through a whole game") {
  fan_out_table f("ex03_final_scoring.json", 0);
  for (std::size_t n = 0; n <= f.rec.moves.size(); ++n) {
    f.change(n);
    for (int i = 0; i < static_cast<int>(f.seats.size()); ++i) {
      CHECK_FALSE(f.clients[i]->gap);
      CHECK(f.clients[i]->seq == f.seq);
      CHECK(f.clients[i]->view == f.view_of(i));
    }
    CHECK(f.watcher->view == f.view_of(-1));
    CHECK(f.watcher->frames.back()["events"] == json::parse(fan_out_events));
  }
  CHECK(f.view_of(0)["game"]["status"] == "finished");
}

TEST_CASE("fan_out: a seat away keeps its last patches for a resume, then none") {
  fan_out_table f("ex01_road_tie.json", 0);
  f.change(0);  // the game appears: never part of the window
  CHECK(f.seats[1].recent.empty());
  f.seats[1].client = nullptr;  // away
  for (std::size_t n = 1; n <= 3; ++n) f.change(n);
  CHECK(f.seats[1].missed == 3);
  CHECK(f.seats[1].recent.covers(1, f.seq));
  const auto kept = f.seats[1].recent.after(1);
  REQUIRE(kept.size() == 3);
  for (std::size_t i = 0; i < kept.size(); ++i)
    CHECK(json::parse(*kept[i])["seq"] == f.seq - 2 + i);
  static_assert(resume_window::patches < 17);  // the record's 18 moves outlast the window
  for (std::size_t n = 4; n <= f.rec.moves.size(); ++n) f.change(n);
  CHECK(f.seats[1].recent.empty());  // away too long: a resume gets a snapshot
}

TEST_CASE("fan_out: delayed spectators see the game `delay` moves behind, events at the end") {
  fan_out_table f("ex03_final_scoring.json", 2);
  for (std::size_t n = 0; n <= f.rec.moves.size(); ++n) {
    f.change(n);
    const bool over = f.t.game->finished;
    // The delayed game replayed to its move, as a fresh view would show it.
    auto behind = game_at_start(f.rec.setup);
    const std::size_t shown = over ? n : (n >= 2 ? n - 2 : 0);
    const std::vector<std::string> first(f.rec.moves.begin(),
                                         f.rec.moves.begin() + static_cast<long>(shown));
    REQUIRE(replay(f.rec.setup, first, *behind).empty());
    CHECK(f.t.spectator_doc().text() == carcassonne::protocol::public_doc(*behind, f.names).text());
    CHECK(f.watcher->view == f.view_of(-1));  // its patches brought it there
    CHECK(f.watcher->frames.back()["events"] ==
          (over ? json::parse(fan_out_events) : json::array()));
  }
}
