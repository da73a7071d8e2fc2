// The alarms of a room's clocks (match/clock_alarms.hpp) without a room: a fake timer, and
// hooks that count their calls.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>

#include "fake_timer.hpp"
#include "match/clock_alarms.hpp"

namespace {

using carcassonne::server::clock_alarms;
using carcassonne::server::test::fake_timer;
using std::chrono::seconds;

struct alarm_counts {
  int timeouts = 0, checkpoints = 0, aways = 0;
  clock_alarms::hooks hooks() {
    return {[this] { ++timeouts; }, [this] { ++checkpoints; }, [this] { ++aways; }};
  }
};

}  // namespace

TEST_CASE("clock_alarms: the timeout falls due once at its time, a new one replaces it") {
  auto timer = std::make_shared<fake_timer>();
  alarm_counts n;
  clock_alarms a(n.hooks());
  a.set_timer(timer);
  a.timeout_at(timer->now() + seconds(10));
  a.timeout_at(timer->now() + seconds(20));  // a decision: the next seat's deadline
  timer->advance(seconds(19));
  CHECK(n.timeouts == 0);
  CHECK(a.timeout_pending());
  timer->advance(seconds(1));
  CHECK(n.timeouts == 1);
  CHECK_FALSE(a.timeout_pending());
  timer->advance(seconds(60));
  CHECK(n.timeouts == 1);

  a.timeout_at(timer->now() + seconds(5));
  a.timeout_at(std::nullopt);  // the clock stopped (held for a vacation, or the game over)
  timer->advance(seconds(60));
  CHECK(n.timeouts == 1);
  CHECK(timer->pending() == 0);

  a.timeout_after(seconds(30));  // the store could not say: asked again
  timer->advance(seconds(30));
  CHECK(n.timeouts == 2);
}

TEST_CASE("clock_alarms: a checkpoint pending is not moved by the next decisions") {
  auto timer = std::make_shared<fake_timer>();
  alarm_counts n;
  clock_alarms a(n.hooks());
  a.set_timer(timer);
  a.checkpoint_after(seconds(60));
  timer->advance(seconds(40));
  a.checkpoint_after(seconds(60));  // pending already: still due at 60 s
  timer->advance(seconds(20));
  CHECK(n.checkpoints == 1);
  CHECK_FALSE(a.checkpoint_pending());
  a.checkpoint_after(seconds(60));
  CHECK(a.checkpoint_pending());
}

TEST_CASE(
    "clock_alarms: the away check is replaced or called off, and nothing outlives the alarms") {
  auto timer = std::make_shared<fake_timer>();
  alarm_counts n;
  {
    clock_alarms a(n.hooks());
    a.set_timer(timer);
    a.away_at(timer->now() + seconds(100));
    a.away_at(timer->now() + seconds(150));  // another seat left later
    timer->advance(seconds(120));
    CHECK(n.aways == 0);
    a.away_at(std::nullopt);  // someone came back
    timer->advance(seconds(100));
    CHECK(n.aways == 0);
    a.away_at(timer->now() + seconds(1));
    a.timeout_at(timer->now() + seconds(1));
    a.checkpoint_after(seconds(1));
    CHECK(timer->pending() == 3);
  }
  CHECK(timer->pending() == 0);  // a room gone: its alarms with it
  timer->advance(seconds(10));
  CHECK(n.aways + n.timeouts + n.checkpoints == 0);

  clock_alarms untimed(n.hooks());  // no timer: nothing is ever due
  untimed.timeout_at(timer->now());
  untimed.away_at(timer->now());
  untimed.checkpoint_after(seconds(0));
  CHECK_FALSE(untimed.timeout_pending());
  CHECK_FALSE(untimed.away_pending());
  CHECK_FALSE(untimed.checkpoint_pending());
}
