// Clocks and timeouts in a room driven by a fake timer (no sleeps): Fischer increments, a timeout
// in each action mode, a timeout during the Easter bunny phase; the record replays exactly.
#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/engine/rng.hpp"
#include "easter/id.hpp"
#include "match_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;

namespace {

match_options fischer(std::chrono::seconds initial, std::chrono::seconds increment,
                      timeout_action on_timeout = timeout_action::bot) {
  match_options o;
  o.clock = time_control::fischer;
  o.initial = initial;
  o.increment = increment;
  o.on_timeout = on_timeout;
  return o;
}

}  // namespace

TEST_CASE("Fischer: the seat that decides is charged, and gets its increment when it hands over") {
  table t(2, fischer(60s, 5s));
  CHECK(t.clock()["running"] == 0);
  CHECK(t.clock()["remaining_ms"] == json::array({60000, 60000}));
  CHECK(t.seats[0]->view["room"]["match"]["clock"] == "fischer");
  t.timer->advance(10s);
  t.play_turn();
  CHECK(t.clock()["running"] == 1);
  CHECK(t.clock()["remaining_ms"] == json::array({55000, 60000}));  // 60 - 10 + 5
  t.timer->advance(21s);
  t.play_turn();
  CHECK(t.clock()["running"] == 0);
  CHECK(t.clock()["remaining_ms"] == json::array({55000, 44000}));  // 60 - 21 + 5
  // The patch that carries the clock is the one of that move: every client agrees.
  CHECK(t.seats[1]->view["room"]["clock"] == t.clock());
  CHECK(t.r->record()["moves"].size() >= 2);
  check_replays(*t.r);
}

TEST_CASE("a snapshot's clock says how long the running seat's clock has run since its seq") {
  table t(2, fischer(60s, 5s));
  t.timer->advance(10s);
  t.play_turn();  // seat 1's clock starts with this patch
  const json clock = t.clock();
  CHECK(clock["remaining_ms"] == json::array({55000, 60000}));
  t.timer->advance(std::chrono::milliseconds(700));
  t.r->snapshot(t.seats[0], "s1");
  const json first = t.seats[0]->last("snapshot");
  CHECK(first["view"]["room"]["clock"] == clock);  // the view as of its seq, as patched
  CHECK(first["clock_elapsed_ms"] == 700);         // seat 1 has 59,300 ms left at its sending
  t.timer->advance(2s);
  t.r->snapshot(t.seats[1], "s2");
  CHECK(t.seats[1]->last("snapshot")["clock_elapsed_ms"] == 2700);
  // A patch reads the clock when it is made: the next snapshot counts from there.
  t.play_turn();
  t.r->snapshot(t.seats[0], "s3");
  CHECK(t.seats[0]->last("snapshot")["clock_elapsed_ms"] == 0);
  CHECK(t.seats[0]->last("snapshot")["view"]["room"]["clock"]["remaining_ms"] ==
        json::array({55000, 62300}));  // 60 - 2.7 + 5
  table untimed(2, match_options{});
  untimed.r->snapshot(untimed.seats[0], "s4");
  CHECK_FALSE(untimed.seats[0]->last("snapshot").contains("clock_elapsed_ms"));
}

TEST_CASE("a timeout with action bot: a bot's move, journaled as made on timeout") {
  match_options o;
  o.clock = time_control::per_decision;
  o.per_move = 30s;
  table t(2, o);
  t.timer->advance(29s);
  CHECK(t.r->record()["moves"].empty());
  t.timer->advance(1s);
  const json moves = t.r->record()["moves"];
  REQUIRE(moves.size() == 1);
  CHECK(moves[0]["seat"] == 0);
  CHECK(moves[0]["type"] == "place_tile");
  CHECK(moves[0]["timeout"] == true);
  // The next decision has its own 30 s; the bot played, the game goes on.
  CHECK(t.clock()["remaining_ms"][static_cast<std::size_t>(to_act(t.game()))] == 30000);
  CHECK_FALSE(t.seats[0]->gap);
  CHECK(t.seats[0]->seq == t.r->seq());
  check_replays(*t.r);
  // A room whose timeouts keep firing plays itself to the end, and still replays.
  for (int i = 0; i < 400 && !t.game().finished; ++i) t.timer->advance(30s);
  CHECK(t.game().finished);
  check_replays(*t.r);
}

TEST_CASE("a timeout with action forfeit: the seat leaves, its turns are skipped") {
  table t(3, fischer(10s, 0s, timeout_action::forfeit));
  t.timer->advance(10s);
  CHECK(has_forfeited(t.game(), 0));
  CHECK(t.seats[1]->view["game"]["forfeited"] == json::array({0}));
  const json last = t.r->record()["moves"].back();
  CHECK(last == json{{"seat", 0}, {"type", "forfeit"}, {"reason", "timeout"}, {"timeout", true}});
  CHECK(to_act(t.game()) == 1);
  CHECK(t.clock()["running"] == 1);
  check_replays(*t.r);
  // Seats 1 and 2 play on; seat 0 never acts again.
  for (int i = 0; i < 6; ++i) {
    t.play_turn();
    CHECK(to_act(t.game()) != 0);
  }
  check_replays(*t.r);
}

TEST_CASE("a timeout in the Easter bunny phase: the clock of the seat whose go it is runs out") {
  match_options o;
  o.clock = time_control::per_decision;
  o.per_move = 5s;
  table t(3, o, json{{"expansions", json::array({"easter"})}});
  rng chooser(3);
  // Random play until another seat than the active one must move the bunny.
  for (int i = 0; i < 2000 && !t.game().finished; ++i) {
    if (t.game().awaiting == easter::decision_bunny && t.game().deciding != t.game().active) break;
    auto& c = t.seats.at(to_act(t.game()));
    const auto& legal = c->view["game"]["legal_moves"];
    t.r->move(c, messages::move_of(legal[chooser.below(legal.size())]), nullptr);
  }
  REQUIRE(t.game().awaiting == easter::decision_bunny);
  const int go = t.game().deciding;
  REQUIRE(go != t.game().active);
  CHECK(t.clock()["running"] == go);
  t.timer->advance(5s);
  const json last = t.r->record()["moves"].back();
  CHECK(last["type"] == "bunny");
  CHECK(last["seat"] == go);
  CHECK(last["timeout"] == true);
  check_replays(*t.r);
}

TEST_CASE("the clock's texts are its trees' dumps, running, handed over, paused and resumed") {
  using tp = room_clock::time_point;
  for (const auto control :
       {time_control::fischer, time_control::per_decision, time_control::correspondence}) {
    match_options o = fischer(90s, 7s);
    o.clock = control;
    o.per_move = 45s;
    room_clock c(o, 3);
    tp now{};
    int checked = 0;
    const auto check = [&] {
      std::string view, saved;
      c.append_view(view, now);
      c.append_saved(saved, now);
      CHECK(view == c.view(now).dump());
      CHECK(saved == c.saved(now).dump());
      ++checked;
    };
    check();  // nobody's clock runs yet
    for (int step = 0; step < 12; ++step) {
      c.switch_to(step % 3, now);
      now += std::chrono::milliseconds(1234 * (step + 1));
      check();
      if (step % 4 == 1) {  // the server stops and starts again
        c.pause(now);
        check();
        now += 10s;
        c.resume(now);
      }
    }
    now += 600s;  // a seat's time run out: zero, not below
    check();
    c.switch_to(std::nullopt, now);  // the game is over
    check();
    CHECK(checked == 18);
  }
}
