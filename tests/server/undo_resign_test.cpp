// Undo, resign, seats away, rematch in a room with a fake timer; bad input refused with a stable
// code and nothing changed; the record of each replays to the live game.
#include "carcassonne/engine/forfeit.hpp"
#include "every_expansion.hpp"
#include "match_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;
using kind = protocol::match_msg::kind;

namespace {

// BA/C at (0,-1) rotated 180 closes the start tile's city: the figure step waits (the city is
// scored at step 11), a knight there scores 4.
json scripted(std::vector<std::string> tiles) {
  return json{{"script", {{"deck", tiles}}}};
}
json place_city() {
  return json{{"type", "place_tile"}, {"x", 0}, {"y", -1}, {"rotation", 180}};
}

// What a refusal must leave alone.
struct room_print {
  std::uint64_t seq;
  json record;
  game_state game;
  explicit room_print(const room& r) : seq(r.seq()), record(r.record()), game(*r.game()) {}
  bool operator==(const room_print& o) const {
    return seq == o.seq && record == o.record && game == o.game;
  }
};

}  // namespace

TEST_CASE("undo with consent: accepted, the move leaves the record; refused, nothing changes") {
  table t(2, match_options{}, scripted({"BA/C", "BA/RFr", "BA/RFr"}));
  const game_state start = t.game();
  t.r->move(t.seats[0], messages::move_of(place_city()), "m1");
  REQUIRE(t.game().awaiting == decision::figure);
  t.act(0, kind::undo, true, "u1");
  CHECK(t.seats[0]->last("undo_requested")["id"] == "u1");
  CHECK(t.seats[1]->view["room"]["undo_request"] ==
        json{{"seat", 0}, {"waiting", json::array({1})}});
  t.act(1, kind::undo_answer, true, "y");
  CHECK(t.seats[1]->last("undo_answered")["accept"] == true);
  CHECK(t.game() == start);
  CHECK(t.r->record()["moves"].empty());
  CHECK_FALSE(t.seats[0]->view["room"].contains("undo_request"));
  CHECK(t.seats[0]->view["game"]["board"].size() == 1);
  check_replays(*t.r);

  // Again, and this time seat 1 refuses: the tile stays.
  t.r->move(t.seats[0], messages::move_of(place_city()), "m2");
  const room_print placed(*t.r);
  t.act(0, kind::undo, true, "u2");
  t.act(1, kind::undo_answer, false, "n");
  CHECK(t.r->record() == placed.record);
  CHECK(t.game() == placed.game);
  CHECK_FALSE(t.seats[0]->view["room"].contains("undo_request"));
  // A request nobody answers in time is declined too.
  t.act(0, kind::undo, true, "u3");
  CHECK(t.seats[0]->view["room"].contains("undo_request"));
  t.timer->advance(60s);
  CHECK_FALSE(t.seats[0]->view["room"].contains("undo_request"));
  CHECK(t.game() == placed.game);
  check_replays(*t.r);
}

TEST_CASE("undo is refused after a score and after a draw, and changes nothing") {
  match_options free_undo;
  free_undo.undo = undo_mode::free;
  table t(2, free_undo, scripted({"BA/C", "BA/RFr", "BA/RFr"}));
  t.r->move(t.seats[0], messages::move_of(place_city()), nullptr);
  t.r->move(
      t.seats[0],
      messages::move_of(
          {{"type", "deploy"}, {"figure", "meeple"}, {"x", 0}, {"y", -1}, {"feature", "city0"}}),
      nullptr);
  REQUIRE(t.game().players[0].score == 4);
  const room_print scored(*t.r);
  t.act(0, kind::undo, true, "u");
  CHECK(t.seats[0]->last_error() == "nothing_to_undo");
  CHECK(room_print(*t.r) == scored);
  // Seat 1 has just drawn: nothing of its own to take back.
  t.act(1, kind::undo, true, "u");
  CHECK(t.seats[1]->last_error() == "nothing_to_undo");
  CHECK(room_print(*t.r) == scored);
  // With `free`, a placement is taken back at once.
  t.play_first();
  REQUIRE(t.game().awaiting == decision::figure);
  t.act(1, kind::undo, true, "u");
  CHECK(t.seats[1]->last("undone")["id"] == "u");
  CHECK(room_print(*t.r).record == scored.record);
  CHECK(t.game() == scored.game);
  check_replays(*t.r);
}

TEST_CASE("a take-back replays the journal: the game before the move, late in whole games too") {
  match_options free_undo;
  free_undo.undo = undo_mode::free;
  const json all_five{{"expansions", carcassonne::testing::every_expansion()}};
  for (const json& setup : {json::object(), all_five}) {
    INFO("setup: " << setup.dump());
    table t(3, free_undo, setup);
    int taken_back = 0;
    for (int n = 0; !t.game().finished; ++n) {
      const game_state before = t.game();
      const auto seat = to_act(before);
      t.play_first();
      if (t.game().finished) continue;
      auto& c = *t.seats[seat];
      const auto seen = c.frames.size();
      t.act(seat, kind::undo, true, "u" + std::to_string(n));
      json answer;  // the frame that answers the request
      for (auto i = seen; i < c.frames.size(); ++i)
        if (c.frames[i].value("id", json()) == "u" + std::to_string(n)) answer = c.frames[i];
      REQUIRE_MESSAGE(answer.is_object(), "no answer to the undo");
      if (answer["type"] == "error") {  // a draw or a score: final
        REQUIRE_MESSAGE(answer["code"] == "nothing_to_undo", answer.dump());
        continue;
      }
      REQUIRE(answer["type"] == "undone");
      CHECK(t.game() == before);  // the whole state: board, features, bags, hands, the RNG
      ++taken_back;
      t.play_first();  // the same move again, and on
    }
    CHECK(taken_back > 20);
    check_replays(*t.r);
  }
}

TEST_CASE("match requests that make no sense are refused with a stable code, nothing changed") {
  table t(2, match_options{}, scripted({"BA/C", "BA/RFr"}));
  auto watcher = make_client();
  t.r->spectate(watcher, nullptr);
  const room_print before(*t.r);
  protocol::match_msg resign;
  t.r->match_action(watcher, resign, "w");
  CHECK(watcher->last_error() == "not_seated");
  t.act(1, kind::undo_answer, true, "x");
  CHECK(t.seats[1]->last_error() == "no_undo_request");
  t.act(0, kind::undo, true, "x");
  CHECK(t.seats[0]->last_error() == "nothing_to_undo");
  t.act(0, kind::rematch, true, "x");
  CHECK(t.seats[0]->last_error() == "game_not_over");
  CHECK(room_print(*t.r) == before);
  // An answer from the seat that asked, and undo in a room where it is off.
  t.r->move(t.seats[0], messages::move_of(place_city()), nullptr);
  t.act(0, kind::undo);
  const room_print asked(*t.r);
  t.act(0, kind::undo_answer, true, "self");
  CHECK(t.seats[0]->last_error() == "not_asked");
  t.act(0, kind::undo);
  CHECK(t.seats[0]->last_error() == "undo_pending");
  CHECK(room_print(*t.r) == asked);
  match_options off;
  off.undo = undo_mode::off;
  table u(2, off, scripted({"BA/C", "BA/RFr"}));
  u.r->move(u.seats[0], messages::move_of(place_city()), nullptr);
  u.act(0, kind::undo);
  CHECK(u.seats[0]->last_error() == "undo_off");
}

TEST_CASE("resign: the seat forfeits at once, is skipped, and is listed as forfeited at the end") {
  table t(3, match_options{});
  t.play_turn();
  t.act(1, kind::resign, true, "bye");
  CHECK(t.seats[1]->last("resigned")["id"] == "bye");
  CHECK(t.seats[0]->view["game"]["forfeited"] == json::array({1}));
  CHECK(t.r->record()["moves"].back() ==
        json{{"seat", 1}, {"type", "forfeit"}, {"reason", "resign"}});
  const int frozen = t.game().players[1].score;
  t.act(1, kind::resign, true, "again");
  CHECK(t.seats[1]->last_error() == "already_forfeited");
  for (int i = 0; i < 500 && !t.game().finished; ++i) {
    CHECK(to_act(t.game()) != 1);
    t.play_first();
  }
  REQUIRE(t.game().finished);
  CHECK(t.game().players[1].score == frozen);
  CHECK(t.seats[2]->view["game"]["status"] == "finished");
  CHECK(t.seats[2]->view["game"]["forfeited"] == json::array({1}));
  check_replays(*t.r);
}

TEST_CASE("every seat away longer than the room's limit: the game ends and the room is archived") {
  match_options o;
  o.away_limit = 120s;
  table t(2, o);
  t.r->disconnected(t.seats[0]);
  t.timer->advance(100s);
  t.r->disconnected(t.seats[1]);
  t.timer->advance(119s);  // seat 1 has been away 119 s: the game goes on
  CHECK_FALSE(t.game().finished);
  t.timer->advance(1s);
  REQUIRE(t.game().finished);
  CHECK(t.game().forfeited == 0b11);
  CHECK(t.r->listing().summary().state == room_state::finished);
  CHECK(t.r->listing().abandoned());
  REQUIRE(t.r->listing().finished_record());
  check_replays(*t.r);
}

TEST_CASE("rematch: the seats that accept get a new room with the same setup, started") {
  table t(3, match_options{}, scripted({"BA/RFr"}));
  std::vector<std::unique_ptr<room>> spawned;
  std::vector<seat_init> spawned_seats;
  t.r->attach_hooks({.spawn = [&](room_settings s, std::vector<seat_init> seats) {
    s.id = "m2";
    spawned_seats = seats;
    spawned.push_back(room::rematch_room(std::move(s), seats, nullptr));
    spawned.back()->start_rematch();
    return std::string("m2");
  }});
  t.play_turn();
  REQUIRE(t.game().finished);
  t.act(0, kind::rematch, true, "r0");
  CHECK(t.seats[0]->last("rematch_answered")["accept"] == true);
  t.act(0, kind::rematch, true, "r0b");
  CHECK(t.seats[0]->last_error() == "already_answered");
  t.act(1, kind::rematch, false, "r1");
  CHECK(spawned.empty());  // seat 2 has not answered
  CHECK(t.seats[2]->view["room"]["rematch"]["accepted"] == json::array({0}));
  t.act(2, kind::rematch, true, "r2");
  REQUIRE(spawned.size() == 1);
  CHECK(t.seats[0]->view["room"]["rematch"]["room"] == "m2");
  const json ready = t.seats[2]->last("rematch_ready");
  CHECK(ready["room"] == "m2");
  CHECK(ready["seat"] == 1);
  CHECK(t.seats[1]->last("rematch_ready").is_null());  // seat 1 declined
  // The new room: seats 0 and 2 of the old one, same expansions and options, game running.
  room& next = *spawned[0];
  REQUIRE(next.game() != nullptr);
  CHECK(next.game()->seats == 2);
  CHECK_FALSE(next.game()->finished);
  auto back = make_client();
  next.resume(back, messages::resume_with("m2", ready["token"].get<std::string>()), "res");
  CHECK(back->last("resumed")["seat"] == 1);
  CHECK(back->view["room"]["seats"][1]["name"] == "P2");
  t.act(1, kind::rematch, true, "late");
  CHECK(t.seats[1]->last_error() == "rematch_done");
}
