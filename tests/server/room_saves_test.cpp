// What a room writes besides its moves, without a room (room/room_saves.hpp): the meta with its
// seq claim, the game's end once, the notices of the seats with accounts and the "my games" rows
// when they change; nothing while the room does not write.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "room/room_meta.hpp"
#include "room/room_saves.hpp"

namespace {

using namespace carcassonne::server;
using nlohmann::json;

room_settings saves_settings() {
  room_settings s;
  s.id = "r1";
  s.name = "Evening";
  s.seats = 3;
  s.setup = json::object();
  return s;
}

// A room's parts as values, writing into `written` (the store never answers: nothing is shown).
struct saves_room {
  room_settings settings = saves_settings();
  room_members members{.seats = std::vector<seat_slot>(3)};
  game_table table{0};
  seat_clocks clocks{match_options{}, {}};
  carcassonne::protocol::room_bot_settings bots;
  rematch_state rematch;
  std::uint64_t seq = 10;
  room_writes writes;
  std::vector<store_write> written;
  room_saves saves{writes, settings};

  explicit saves_room(bool writing = true) {
    members.seats[0].taken = true;
    members.seats[0].name = "Ann";
    members.seats[0].player = "acc-ann";
    members.seats[1].taken = true;
    members.seats[1].name = "bot";
    members.seats[1].bot = carcassonne::bot_level::greedy;
    members.seats[2].taken = true;
    members.seats[2].name = "Cy";  // a guest: no account
    if (writing)
      writes.attach([this](store_write w, store::done_fn) { written.push_back(std::move(w)); },
                    [](std::function<void()> f) { f(); }, {});
  }
  save_source source() const {
    return {settings, members, table, clocks, nullptr, bots, rematch, seq};
  }
  const save_room_write& last_save() const {
    REQUIRE(!written.empty());
    REQUIRE(std::holds_alternative<save_room_write>(written.back()));
    return std::get<save_room_write>(written.back());
  }
  // The game of a recorded three-player game, played to its end.
  void finish_game() {
    std::ifstream in(std::string(CARCASSONNE_SOURCE_DIR) +
                     "/tests/records/ex03_final_scoring.json");
    const auto r = json::parse(in);
    auto g = game_at_start(r.at("setup"));
    REQUIRE(g);
    table.start(*g, {"Ann", "bot", "Cy"}, r.at("setup").dump(), "[]");
    for (const auto& m : r.at("moves")) table.journal.moves.push_back(m.dump());
    REQUIRE(replay(r.at("setup"), table.journal.moves, *table.game).empty());
    REQUIRE(table.game->finished);
  }
};

}  // namespace

TEST_CASE("room_saves: the meta claims seq numbers ahead, and the game's end goes with one save") {
  saves_room r;
  r.saves.meta(r.source());
  CHECK(r.last_save().state == room_state::waiting);
  CHECK_FALSE(r.last_save().end);
  const auto meta = json::parse(r.last_save().meta);
  CHECK(meta["seq"] == 10 + seq_reserve);
  CHECK(r.writes.claimed() == 10 + seq_reserve);
  CHECK(meta["record_setup"].is_null());
  CHECK(meta == json::parse(r.saves.meta_text(r.source())));

  r.finish_game();
  r.seq = 40;
  r.saves.meta(r.source());
  CHECK(r.last_save().state == room_state::finished);
  REQUIRE(r.last_save().end);
  CHECK(r.last_save().end->seats.size() == 3);
  CHECK(r.last_save().end->pool.empty());  // a guest sat: not rated
  CHECK(json::parse(r.last_save().meta)["record_setup"].is_object());
  CHECK(r.writes.claimed() == 40 + seq_reserve);
  r.saves.meta(r.source());  // the end is stored: not again
  CHECK_FALSE(r.last_save().end);
  CHECK(r.written.size() == 3);
}

TEST_CASE("room_saves: notices go to seats with accounts with the next write, rows when changed") {
  saves_room r;
  r.saves.write_notices(r.source());  // none queued: nothing written
  CHECK(r.written.empty());
  r.saves.notice(r.source(), 0, "undo_requested", "u3");
  r.saves.notice(r.source(), 1, "undo_requested", "u3");  // a bot's seat has no account
  r.saves.notice(r.source(), 5, "undo_requested", "u3");  // no such seat
  r.saves.write_notices(r.source());
  REQUIRE(r.last_save().notices.size() == 1);
  const auto& n = r.last_save().notices[0];
  CHECK(n.player == "acc-ann");
  CHECK(n.kind == "undo_requested");
  CHECK(n.key == "r1:u3:undo_requested:acc-ann");
  REQUIRE(r.last_save().mine);
  CHECK(r.last_save().mine->state == "waiting");
  CHECK(r.last_save().mine->players ==
        std::vector<std::pair<int, std::string>>{{0, std::string("acc-ann")}});
  CHECK(json::parse(r.last_save().mine->seat_list)[1]["player"] == "bot-greedy");

  r.saves.write(r.source(), move_write{"r1", r.writes.next_row(), "{}", "null", 11});
  REQUIRE(std::holds_alternative<move_write>(r.written.back()));
  CHECK(std::get<move_write>(r.written.back()).notices.empty());  // told once
  CHECK_FALSE(std::get<move_write>(r.written.back()).mine);       // the rows did not change
  CHECK(r.writes.claimed() == 10 + seq_reserve);                  // the meta's claim stands

  r.finish_game();
  r.saves.meta(r.source());
  REQUIRE(r.last_save().mine);  // the rows changed: the game is over
  CHECK(r.last_save().mine->state == "finished");
  bool over_told = false;
  for (const auto& told : r.last_save().notices) over_told |= told.kind == "game_over";
  CHECK(over_told);
}

TEST_CASE("room_saves: a room that does not write writes nothing, and keeps no notice for later") {
  saves_room r(false);
  r.saves.notice(r.source(), 0, "rematch_offered", "rematch");
  r.saves.write_notices(r.source());
  r.saves.meta(r.source());
  r.saves.clock(r.source());
  CHECK(r.written.empty());
  CHECK(r.writes.rows() == 0);
}
