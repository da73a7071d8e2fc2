// The seats' clocks (match/seat_clocks.hpp) without a room: a fake timer, a table of seats the
// hooks read, and a players' store that answers when the test says.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fake_timer.hpp"
#include "match/seat_clocks.hpp"

namespace {

using carcassonne::server::match_options;
using carcassonne::server::seat_clocks;
using carcassonne::server::time_control;
using carcassonne::server::test::fake_timer;
using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;

// What a room would say: who acts, who sits where, what it did when told.
struct clock_table {
  std::optional<int> acting = 0;
  bool stopped = false;
  std::vector<std::string> players{"ann", "bob"};
  std::vector<bool> forfeited{false, false};
  std::size_t moves = 0;
  std::vector<int> timed_out;
  int saves = 0, aways = 0, holds_changed = 0;
  std::vector<std::pair<int, bool>> held;
  // Vacation lookups not answered yet: the player and the answer to give.
  std::vector<std::pair<std::string, seat_clocks::vacation_answer>> asked;

  seat_clocks::hooks hooks() {
    seat_clocks::hooks h;
    h.to_act = [this] { return acting; };
    h.stopped = [this] { return stopped; };
    h.player = [this](int seat) { return players[static_cast<std::size_t>(seat)]; };
    h.forfeited = [this](int seat) {
      return static_cast<bool>(forfeited[static_cast<std::size_t>(seat)]);
    };
    h.moves = [this] { return moves; };
    h.time_out = [this](int seat) { timed_out.push_back(seat); };
    h.save = [this] { ++saves; };
    h.away = [this] { ++aways; };
    h.held = [this](int seat, bool on) { held.emplace_back(seat, on); };
    h.holds_changed = [this] { ++holds_changed; };
    return h;
  }
  seat_clocks::vacation_lookup lookup() {
    return [this](const std::string& player, seat_clocks::vacation_answer done) {
      asked.emplace_back(player, std::move(done));
    };
  }
};

match_options correspondence(bool vacation) {
  match_options o;
  o.clock = time_control::correspondence;
  o.per_move = hours(24);
  o.vacation = vacation;
  return o;
}

// Two seats' correspondence clocks running, seat 0's turn; the store said nobody is away.
void start_nobody_away(seat_clocks& c, const std::shared_ptr<fake_timer>& timer, clock_table& t) {
  c.set_timer(timer);
  c.start(2);
  c.changed(true);
  c.attach_lookup(t.lookup());
  for (auto& a : t.asked) a.second(std::nullopt, true);
  t.asked.clear();
}

}  // namespace

TEST_CASE(
    "seat_clocks: the seat to act times out at its deadline, and a move gives the next its time") {
  auto timer = std::make_shared<fake_timer>();
  clock_table t;
  match_options o;
  o.clock = time_control::per_decision;
  o.per_move = seconds(30);
  seat_clocks c(o, t.hooks());
  c.set_timer(timer);
  c.start(2);
  c.changed(true);
  timer->advance(seconds(20));
  t.acting = 1;  // seat 0 moved after 20 s: seat 1 has a fresh 30 s
  c.changed(true);
  CHECK(c.clock().remaining(1, timer->now()) == seconds(30));
  timer->advance(seconds(29));
  CHECK(t.timed_out.empty());
  timer->advance(seconds(1));
  CHECK(t.timed_out == std::vector<int>{1});
  t.acting = 0;  // the room played seat 1's timeout move: seat 0 has a fresh 30 s
  c.changed(true);
  timer->advance(seconds(29));
  CHECK(t.timed_out == std::vector<int>{1});
  timer->advance(seconds(1));
  CHECK(t.timed_out == std::vector<int>{1, 0});
}

TEST_CASE("seat_clocks: a running clock is written every minute, and not once the game is over") {
  auto timer = std::make_shared<fake_timer>();
  clock_table t;
  seat_clocks c(correspondence(false), t.hooks());
  c.set_timer(timer);
  c.start(2);
  c.changed(true);
  timer->advance(seconds(59));
  CHECK(t.saves == 0);
  timer->advance(seconds(1));
  CHECK(t.saves == 1);
  timer->advance(seconds(60));
  CHECK(t.saves == 2);
  t.acting.reset();  // the game ended
  c.changed(true);
  timer->advance(hours(48));
  CHECK(t.saves == 2);
  CHECK(t.timed_out.empty());
}

TEST_CASE("seat_clocks: a vacation holds its player's seats and lets them go when it ends") {
  auto timer = std::make_shared<fake_timer>();
  clock_table t;
  t.players = {"ann", "ann", "bob"};  // ann holds two seats
  t.forfeited = {false, false, false};
  seat_clocks c(correspondence(true), t.hooks());
  c.set_timer(timer);
  c.start(3);
  c.changed(true);
  c.attach_lookup(t.lookup());
  REQUIRE(t.asked.size() == 2);  // each player once
  CHECK(t.asked[0].first == "ann");
  CHECK(t.asked[1].first == "bob");
  t.asked[1].second(std::nullopt, true);  // bob is not away: nothing held
  t.asked[0].second(milliseconds(hours(72)), true);
  CHECK(t.held == std::vector<std::pair<int, bool>>{{0, true}, {1, true}});
  CHECK(t.holds_changed == 1);
  CHECK(c.clock().held(0));
  CHECK_FALSE(c.clock().counting());  // seat 0 acts, and it is held
  timer->advance(hours(71));
  CHECK(t.timed_out.empty());  // 71 hours past a 24-hour turn: held
  timer->advance(hours(1));    // the vacation ends: both seats run again
  CHECK(t.held.size() == 4);
  CHECK(t.held[2] == std::pair<int, bool>{0, false});
  CHECK(t.holds_changed == 3);  // one per seat let go by its own timer
  CHECK(c.clock().counting());
  CHECK(c.clock().remaining(0, timer->now()) == hours(24));  // the time it had when held
}

TEST_CASE("seat_clocks: a timeout asks the store first, and waits while it cannot answer") {
  auto timer = std::make_shared<fake_timer>();
  clock_table t;
  seat_clocks c(correspondence(true), t.hooks());
  start_nobody_away(c, timer, t);
  timer->advance(hours(24));
  REQUIRE(t.asked.size() == 1);  // seat 0's time is up: is ann on vacation?
  CHECK(t.timed_out.empty());
  auto first = std::move(t.asked[0].second);
  t.asked.clear();
  first(std::nullopt, false);  // the store cannot say: nobody forfeits, it asks again in 30 s
  CHECK(t.timed_out.empty());
  timer->advance(seconds(30));
  REQUIRE(t.asked.size() == 1);
  t.asked[0].second(std::nullopt, true);  // not on vacation: she times out
  CHECK(t.timed_out == std::vector<int>{0});
}

TEST_CASE("seat_clocks: an answer about a position the game has left is dropped") {
  auto timer = std::make_shared<fake_timer>();
  clock_table t;
  seat_clocks c(correspondence(true), t.hooks());
  start_nobody_away(c, timer, t);
  timer->advance(hours(24));
  REQUIRE(t.asked.size() == 1);
  t.moves = 1;  // seat 0 moved meanwhile (a bot played for it)
  t.asked[0].second(std::nullopt, true);
  CHECK(t.timed_out.empty());

  t.moves = 0;
  t.stopped = true;  // another instance took the room: nothing more happens here
  c.vacation_changed("ann", milliseconds(hours(1)));
  CHECK(t.held.empty());
}

TEST_CASE("seat_clocks: a seat that left the game is never held, and guests and bots never asked") {
  auto timer = std::make_shared<fake_timer>();
  clock_table t;
  t.players = {"ann", "", "ann"};  // seat 1: a bot or a guest
  t.forfeited = {false, false, true};
  seat_clocks c(correspondence(true), t.hooks());
  c.set_timer(timer);
  c.start(3);
  c.changed(true);
  c.attach_lookup(t.lookup());
  REQUIRE(t.asked.size() == 1);
  t.asked[0].second(milliseconds(hours(5)), true);
  CHECK(t.held == std::vector<std::pair<int, bool>>{{0, true}});
}
