// The room without sockets: joins, start, whole games through messages, views and diffs,
// hidden information, and every refusal leaving the room unchanged.
#include <doctest/doctest.h>

#include "carcassonne/engine/rng.hpp"
#include "easter/id.hpp"
#include "room_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using carcassonne::testing::make_client;
using carcassonne::testing::play_out;
using carcassonne::testing::test_room_settings;
using namespace carcassonne::testing::messages;
using nlohmann::json;

namespace {

room_settings settings(int seats, int delay = 0, json setup = json::object()) {
  return test_room_settings("r1", seats, "room-test-seed", std::move(setup), delay, "test");
}

}  // namespace

TEST_CASE("a whole game through the room: every client's patched view equals its snapshot") {
  metrics stats;
  auto a = make_client(), b = make_client(), c = make_client(), watcher = make_client();
  room r(settings(4), &stats, a);
  r.join(a, join_as("Ann"), "j1");
  r.join(b, join_as("Bob"), nullptr);
  r.join(c, join_as("Cid"), nullptr);
  r.spectate(watcher, nullptr);
  CHECK(a->last("joined")["seat"] == 0);
  CHECK(a->last("joined")["id"] == "j1");
  CHECK(b->last("joined")["seat"] == 1);
  CHECK(a->room == "r1");
  CHECK(r.listing().summary().taken == 3);
  r.start(a, "s");
  REQUIRE(r.game() != nullptr);
  CHECK(a->view["room"]["state"] == "playing");
  CHECK(a->view["game"]["legal_moves"].is_array());
  CHECK_FALSE(b->view["game"].contains("legal_moves"));
  CHECK(watcher->view["game"]["viewer"] == "spectator");

  std::vector<std::shared_ptr<fake_client>> seats{a, b, c};
  const int moves = play_out(r, seats, 11);
  CHECK(moves > 70);
  CHECK(r.game()->finished);
  CHECK(stats.games_finished.load() == 1);
  CHECK(stats.moves_accepted.load() == moves);
  for (auto* client : {a.get(), b.get(), c.get(), watcher.get()}) {
    CHECK_FALSE(client->gap);
    CHECK(client->seq == r.seq());
    const json held = client->view;
    auto self = std::shared_ptr<fake_client>(client, [](fake_client*) {});
    r.snapshot(self, "snap");
    CHECK(client->last("snapshot")["view"] == held);
  }
  CHECK(a->view["game"]["status"] == "finished");
  json scores = a->view["game"]["scores"];
  for (int s = 0; s < 3; ++s) CHECK(scores[s] == r.game()->players[s].score);
  // The record of the finished game replays to the same scores.
  const json rec = r.record();
  CHECK(rec["moves"].size() == static_cast<std::size_t>(moves));
  CHECK(rec["setup"]["seed"] == "room-test-seed");
}

TEST_CASE("Easter through the room: every bunny go is sent by its own seat, from its own view") {
  metrics stats;
  auto a = make_client(), b = make_client(), c = make_client();
  room r(settings(3, 0, {{"expansions", {"easter"}}}), &stats, a);
  r.join(a, join_as("Ann"), nullptr);
  r.join(b, join_as("Bob"), nullptr);
  r.join(c, join_as("Cid"), nullptr);
  r.start(a, nullptr);
  std::vector<std::shared_ptr<fake_client>> seats{a, b, c};
  rng chooser(5);
  int others = 0, moves = 0;
  while (!r.game()->finished) {
    const auto& st = *r.game();
    const int acting = to_act(st);
    for (int seat = 0; seat < 3; ++seat)
      CHECK(seats[seat]->view["game"].contains("legal_moves") == (seat == acting));
    CHECK(a->view["game"]["awaiting"]["seat"] == acting);
    const auto& legal = seats[acting]->view["game"]["legal_moves"];
    REQUIRE(!legal.empty());
    const json m = legal[chooser.below(legal.size())];
    if (st.awaiting == easter::decision_bunny && acting != st.active) {
      ++others;
      // The active seat cannot take another seat's go, with or without naming that seat.
      const auto before = r.seq();
      auto& active = seats[st.active];
      r.move(active, move_of(m), "x");
      CHECK(active->last("error")["code"] == "wrong_seat");
      json unsigned_move = m;
      unsigned_move.erase("seat");
      r.move(active, move_of(unsigned_move), "y");
      CHECK(active->last("error")["code"] == "not_your_turn");
      CHECK(r.seq() == before);
    }
    r.move(seats[acting], move_of(m), json(moves));
    REQUIRE_MESSAGE(seats[acting]->last("move_accepted")["id"] == json(moves),
                    seats[acting]->raw.back());
    ++moves;
  }
  CHECK(others > 2);
  CHECK(a->view["game"]["eggs"].size() == 3);
  const json rec = r.record();
  CHECK(rec["setup"]["expansions"] == json::array({"easter"}));
}

TEST_CASE("hidden information: no frame ever shows the order of the supply") {
  for (std::uint64_t g = 0; g < 4; ++g) {
    metrics stats;
    auto a = make_client(), b = make_client(), watcher = make_client();
    auto s = settings(2);
    s.seed = "hidden-" + std::to_string(g);
    room r(s, &stats, a);
    r.join(a, join_as("A"), nullptr);
    r.join(b, join_as("B"), nullptr);
    r.spectate(watcher, nullptr);
    r.start(a, nullptr);
    std::vector<std::shared_ptr<fake_client>> seats{a, b};
    rng chooser(g);
    std::size_t scanned = 0;
    while (!r.game()->finished) {
      // The next three tiles, in order, as they would appear in a leaked list.
      const auto& st = *r.game();
      std::string upcoming;
      for (int i = 0; i < 3 && st.next_draw + i < static_cast<int>(st.supply.size()); ++i)
        upcoming.append(i ? "," : "").append(json(tiles()[st.supply[st.next_draw + i]].id).dump());
      for (auto* client : {a.get(), b.get(), watcher.get()}) {
        for (std::size_t f = scanned; f < client->raw.size(); ++f) {
          if (st.tiles_left() >= 3) CHECK(client->raw[f].find(upcoming) == std::string::npos);
          CHECK(client->raw[f].find("\"deck\"") == std::string::npos);
          CHECK(client->raw[f].find("\"seed\"") == std::string::npos);
        }
      }
      scanned = std::min({a->raw.size(), b->raw.size(), watcher->raw.size()});
      auto& c = seats[to_act(st)];
      const auto& legal = c->view["game"]["legal_moves"];
      REQUIRE(legal.is_array());
      const auto before = r.seq();
      r.move(c, move_of(legal[chooser.below(legal.size())]), nullptr);
      REQUIRE_MESSAGE(r.seq() == before + 1, c->raw.back());  // refused: fail, never spin
    }
  }
}

TEST_CASE("refusals change nothing") {
  metrics stats;
  auto a = make_client(), b = make_client(), x = make_client();
  room r(settings(2), &stats, a);
  r.move(a, move_of({{"type", "pass"}}), 1);
  CHECK(a->last_error() == "not_seated");
  r.join(a, join_as("A"), nullptr);
  r.start(a, 2);
  CHECK(a->last_error() == "too_few_players");
  r.join(a, join_as("A again"), 3);
  CHECK(a->last_error() == "already_in_room");
  r.join(b, join_as("B"), nullptr);
  r.join(x, join_as("X"), 4);
  CHECK(x->last_error() == "room_full");
  r.start(b, 5);
  CHECK(b->last_error() == "not_creator");
  r.start(a, 6);
  REQUIRE(r.game() != nullptr);
  r.start(a, 7);
  CHECK(a->last_error() == "already_started");

  const auto before_seq = r.seq();
  const game_state before = *r.game();
  r.move(b, move_of({{"type", "place_tile"}, {"x", 1}, {"y", 0}, {"rotation", 0}}), 8);
  CHECK(b->last_error() == "not_your_turn");
  r.move(a, move_of({{"type", "place_tile"}, {"x", 9}, {"y", 9}, {"rotation", 0}}), 9);
  CHECK(a->last_error() == "square_not_open");
  r.move(a, move_of({{"type", "place_tile"}, {"x", 1}, {"y", 0}, {"rotation", 45}}), 10);
  CHECK(a->last_error() == "bad_rotation");
  r.move(a, move_of({{"type", "fly"}}), 11);
  CHECK(a->last_error() == "malformed_move");
  r.move(a, move_of({{"seat", 1}, {"type", "pass"}}), 12);
  CHECK(a->last_error() == "wrong_seat");
  protocol::move_msg stale = move_of(a->view["game"]["legal_moves"][0]);
  stale.seq = r.seq() + 5;
  r.move(a, stale, 13);
  CHECK(a->last_error() == "stale_sequence");
  CHECK(r.seq() == before_seq);
  CHECK(*r.game() == before);
  CHECK(stats.moves_accepted.load() == 0);

  // A duplicate (same id) is answered again and never applied twice.
  const json legal = a->view["game"]["legal_moves"][0];
  r.move(a, move_of(legal), "dup");
  CHECK(a->last("move_accepted")["id"] == "dup");
  const auto after_seq = r.seq();
  const std::size_t frames = a->frames.size();
  r.move(a, move_of(legal), "dup");
  CHECK(r.seq() == after_seq);
  CHECK(a->frames.size() == frames + 1);
  CHECK(a->frames.back()["type"] == "move_accepted");
  CHECK(stats.moves_accepted.load() == 1);
}

TEST_CASE("leave, disconnect and resume: the seat stays its owner's") {
  metrics stats;
  auto a = make_client(), b = make_client(), b2 = make_client();
  room r(settings(3), &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  const std::string token = b->last("joined")["token"];
  r.start(a, nullptr);
  r.disconnected(b);
  CHECK(a->view["room"]["seats"][1]["connected"] == false);
  CHECK(r.listing().summary().connections == 1);

  protocol::resume_msg bad;
  bad.token = "nope";
  r.resume(b2, bad, 1);
  CHECK(b2->last_error() == "bad_token");
  protocol::resume_msg good;
  good.token = token;
  r.resume(b2, good, 2);
  CHECK(b2->last("resumed")["seat"] == 1);
  {
    const json held = b2->view;  // snapshot, then the patch that marks the seat connected
    r.snapshot(b2, nullptr);
    CHECK(b2->last("snapshot")["view"] == held);
  }
  CHECK(a->view["room"]["seats"][1]["connected"] == true);

  // Playing on: both clients' views stay equal to fresh snapshots.
  std::vector<std::shared_ptr<fake_client>> seats{a, b2};
  for (int i = 0; i < 10 && !r.game()->finished; ++i) {
    auto& c = seats[to_act(*r.game())];
    r.move(c, move_of(c->view["game"]["legal_moves"][0]), nullptr);
  }
  const json held = b2->view;
  r.snapshot(b2, nullptr);
  CHECK(b2->last("snapshot")["view"] == held);

  // Resuming from another connection replaces the first one.
  auto b3 = make_client();
  r.resume(b3, good, 3);
  CHECK(b2->last("replaced")["seat"] == 1);
  CHECK(b2->room.empty());
  r.leave(b3, 4);
  CHECK(b3->last("left")["room"] == "r1");
  CHECK(r.listing().summary().taken == 2);  // after the start the seat stays reserved
}

TEST_CASE("a spectator with a delay sees the game some moves behind, and everything at the end") {
  metrics stats;
  auto a = make_client(), b = make_client(), w = make_client();
  room r(settings(2, 3), &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  r.spectate(w, nullptr);
  r.start(a, nullptr);
  std::vector<std::shared_ptr<fake_client>> seats{a, b};
  for (int i = 0; i < 6; ++i) {
    auto& c = seats[to_act(*r.game())];
    r.move(c, move_of(c->view["game"]["legal_moves"][0]), nullptr);
  }
  CHECK(w->view["game"]["board"].size() < a->view["game"]["board"].size());
  CHECK(w->last("patch")["events"].empty());
  play_out(r, seats, 5);
  CHECK(w->view["game"]["board"] == a->view["game"]["board"]);
  CHECK(w->view["game"]["scores"] == a->view["game"]["scores"]);
  CHECK_FALSE(w->gap);
}

TEST_CASE("chat goes to everyone in the room; spectators cannot chat") {
  metrics stats;
  auto a = make_client(), b = make_client(), w = make_client();
  room r(settings(2), &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  r.spectate(w, nullptr);
  protocol::chat_msg hi;
  hi.text = "hello";
  r.chat(a, hi, "c1");
  CHECK(b->last("chat")["text"] == "hello");
  CHECK(b->last("chat")["name"] == "A");
  CHECK(w->last("chat")["seat"] == 0);
  CHECK(a->last("chat_sent")["id"] == "c1");
  r.chat(w, hi, nullptr);
  CHECK(w->last_error() == "not_seated");
}

TEST_CASE("a spectator arriving mid-game gets the game in its snapshot and follows it") {
  for (int delay : {0, 2}) {
    CAPTURE(delay);
    metrics stats;
    auto a = make_client(), b = make_client(), late = make_client();
    room r(settings(2, delay), &stats, a);
    r.join(a, join_as("A"), nullptr);
    r.join(b, join_as("B"), nullptr);
    r.start(a, nullptr);
    std::vector<std::shared_ptr<fake_client>> seats{a, b};
    for (int i = 0; i < 8; ++i) {
      auto& c = seats[to_act(*r.game())];
      r.move(c, move_of(c->view["game"]["legal_moves"][0]), nullptr);
    }
    r.spectate(late, nullptr);
    REQUIRE(late->view["game"].is_object());
    CHECK(late->view["game"]["board"].size() + (delay ? 1 : 0) >= a->view["game"]["board"].size());
    play_out(r, seats, 3);
    CHECK_FALSE(late->gap);
    CHECK(late->view["game"]["scores"] == a->view["game"]["scores"]);
    const json held = late->view;
    r.snapshot(late, nullptr);
    CHECK(late->last("snapshot")["view"] == held);
  }
}

TEST_CASE("start rights: the creator's connection, or the seat it took; lost when it leaves") {
  metrics stats;
  auto a = make_client(), b = make_client(), c = make_client();
  room r(settings(3), &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  r.leave(a, nullptr);  // before the start: seat 0 is free again and has no start rights
  r.join(c, join_as("C"), nullptr);
  CHECK(c->last("joined")["seat"] == 0);
  r.start(c, "s1");
  CHECK(c->last_error() == "not_creator");
  CHECK(r.game() == nullptr);
  r.start(a, "s2");  // the creating connection itself still may
  CHECK(r.game() != nullptr);
}

TEST_CASE("the start patch carries the first turn's events; one connection holds one seat") {
  metrics stats;
  auto a = make_client(), b = make_client();
  room r(settings(2), &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  const std::string token_b = b->last("joined")["token"];
  r.start(a, nullptr);
  const json events = b->last("patch")["events"];
  REQUIRE(events.size() >= 2);
  CHECK(events[0]["type"] == "turn_started");
  CHECK(events[1]["type"] == "tile_drawn");
  CHECK(events[1]["tile"] == b->view["game"]["tile"]);
  protocol::resume_msg m;
  m.token = token_b;
  r.resume(a, m, "r");
  CHECK(a->last_error() == "already_in_room");
  CHECK(r.listing().summary().connections == 2);
}

namespace {

// A client that notes whether any frame reached it while the room's game was over but its
// record was not yet readable (GET /api/rooms/<id>/record, the `record` message: another thread).
struct record_watch : fake_client {
  const server::room* watched = nullptr;  // (`room` alone is fake_client's member)
  int early = 0;
  void deliver(frame_ptr f) override {
    if (watched && watched->game() && watched->game()->finished &&
        !watched->listing().finished_record())
      ++early;
    fake_client::deliver(std::move(f));
  }
};

}  // namespace

TEST_CASE("a finished game's record is readable before any frame tells of the end") {
  metrics stats;
  auto a = std::make_shared<record_watch>(), b = std::make_shared<record_watch>();
  std::vector<std::shared_ptr<fake_client>> seats{a, b};

  SUBCASE("the last move") {
    room r(settings(2), &stats, a);
    a->watched = b->watched = &r;
    r.join(a, join_as("Ann"), nullptr);
    r.join(b, join_as("Bob"), nullptr);
    r.start(a, nullptr);
    play_out(r, seats, 3);
    REQUIRE(r.game()->finished);
    CHECK(a->last("move_accepted").is_object());
    CHECK(a->early + b->early == 0);
    REQUIRE(r.listing().finished_record());
    CHECK(*r.listing().finished_record() == r.record());
  }
  SUBCASE("a seat resigns, one is left") {
    room r(settings(2), &stats, a);
    a->watched = b->watched = &r;
    r.join(a, join_as("Ann"), nullptr);
    r.join(b, join_as("Bob"), nullptr);
    r.start(a, nullptr);
    protocol::match_msg m;
    m.what = protocol::match_msg::kind::resign;
    r.match_action(a, m, "bye");  // one seat left: the game is over
    REQUIRE(r.game()->finished);
    CHECK(a->last("resigned")["id"] == "bye");
    CHECK(a->early + b->early == 0);
    REQUIRE(r.listing().finished_record());
  }
}
