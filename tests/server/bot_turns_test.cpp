// A room's bots at play (room/bot_turns.hpp) without a room: a fake timer, a runner that holds
// its jobs, and hooks that record what the part asks of its room.
#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/sha256.hpp"
#include "fake_timer.hpp"
#include "room/bot_turns.hpp"

namespace {

using carcassonne::bot_level;
using carcassonne::server::bot_job;
using carcassonne::server::bot_limits;
using carcassonne::server::bot_result;
using carcassonne::server::bot_runner;
using carcassonne::server::bot_turns;
using carcassonne::server::metrics;
using carcassonne::server::test::fake_timer;

struct job_holder final : bot_runner {
  std::vector<std::pair<bot_job, std::function<void(bot_result)>>> jobs;
  void submit(bot_job job, std::function<void(bot_result)> done) override {
    jobs.emplace_back(std::move(job), std::move(done));
  }
};

// The room's side of the hooks, recorded.
struct turns_room {
  std::optional<std::size_t> moves = 3;
  std::vector<std::pair<int, carcassonne::move>> played;
  std::vector<std::pair<int, bot_level>> taken_over;
  std::vector<int> viewed;
  bot_turns::hooks hooks() {
    bot_turns::hooks h;
    h.view = [this](int seat) {
      viewed.push_back(seat);
      carcassonne::information_set info;
      info.seat = static_cast<carcassonne::seat_t>(seat);
      return info;
    };
    h.moves = [this] { return moves; };
    h.play = [this](int seat, const carcassonne::move& m) { played.emplace_back(seat, m); };
    h.take_over = [this](int seat, bot_level l) { taken_over.emplace_back(seat, l); };
    return h;
  }
};

struct turns_fixture {
  std::shared_ptr<fake_timer> timer = std::make_shared<fake_timer>();
  job_holder runner;
  metrics counts;
  turns_room room;
  bot_turns turns{"s33d", "r1", &counts, room.hooks()};
  turns_fixture() {
    turns.attach(
        &runner, [](std::function<void()> f) { f(); },
        bot_limits{123, std::chrono::milliseconds(456)});
    turns.set_timer(timer);
    turns.set_settings(800, 30, bot_level::strong);
  }
};

bot_turns::position bot_to_act(int seat, std::size_t moves, bot_level level) {
  bot_turns::position p;
  p.seat = seat;
  p.moves = moves;
  p.controller = level;
  return p;
}

carcassonne::move pass_by(int seat) {
  carcassonne::move m;
  m.seat = static_cast<carcassonne::seat_t>(seat);
  return m;
}

}  // namespace

TEST_CASE("bot_turns: a bot to act searches after the pause, and its move goes to the room") {
  turns_fixture f;
  f.turns.schedule(bot_to_act(1, 3, bot_level::greedy));
  CHECK(f.turns.turn_seat() == 1);
  f.timer->advance(std::chrono::milliseconds(799));
  CHECK(f.runner.jobs.empty());
  f.timer->advance(std::chrono::milliseconds(1));
  REQUIRE(f.runner.jobs.size() == 1);
  const auto& job = f.runner.jobs[0].first;
  CHECK(f.room.viewed == std::vector<int>{1});
  CHECK(job.info.seat == 1);
  CHECK(job.level == bot_level::greedy);
  CHECK(job.playouts == 123);
  CHECK(job.think_limit == std::chrono::milliseconds(456));
  // Reproducible per room and move: the room's seed and the journal's length.
  const auto digest = carcassonne::server::sha256_hex("s33d/bot/3");
  CHECK(job.seed == std::stoull(digest.substr(0, 16), nullptr, 16));

  bot_result r;
  r.choice.chosen = pass_by(1);
  f.runner.jobs[0].second(r);
  REQUIRE(f.room.played.size() == 1);
  CHECK(f.room.played[0].first == 1);
  CHECK(f.room.played[0].second == pass_by(1));
  CHECK(f.turns.turn_seat() == -1);
  CHECK(f.counts.bot_results_dropped.load() == 0);
}

TEST_CASE("bot_turns: a result for a position the game has left is dropped and counted") {
  turns_fixture f;
  f.turns.schedule(bot_to_act(0, 3, bot_level::random));
  f.timer->advance(std::chrono::milliseconds(800));
  REQUIRE(f.runner.jobs.size() == 1);
  f.room.moves = 4;  // a move came meanwhile
  f.runner.jobs[0].second(bot_result{});
  CHECK(f.room.played.empty());
  CHECK(f.counts.bot_results_dropped.load() == 1);

  // A turn cancelled while its search runs: its result is dropped too.
  f.room.moves = 4;
  f.turns.schedule(bot_to_act(0, 4, bot_level::random));
  f.timer->advance(std::chrono::milliseconds(800));
  REQUIRE(f.runner.jobs.size() == 2);
  f.turns.schedule(bot_turns::position{});  // the game ended
  f.runner.jobs[1].second(bot_result{});
  CHECK(f.room.played.empty());
  CHECK(f.counts.bot_results_dropped.load() == 2);
}

TEST_CASE("bot_turns: a turn is kept for its position, replaced or cancelled otherwise") {
  turns_fixture f;
  f.turns.schedule(bot_to_act(1, 3, bot_level::greedy));
  f.timer->advance(std::chrono::milliseconds(500));
  f.turns.schedule(bot_to_act(1, 3, bot_level::greedy));  // the same: its pause goes on
  f.timer->advance(std::chrono::milliseconds(300));
  CHECK(f.runner.jobs.size() == 1);

  f.turns.schedule(bot_to_act(2, 4, bot_level::greedy));  // another position: a new pause
  f.turns.schedule(bot_to_act(2, 4, bot_level::strong));  // another level: a new pause again
  f.timer->advance(std::chrono::milliseconds(799));
  CHECK(f.runner.jobs.size() == 1);
  f.timer->advance(std::chrono::milliseconds(1));
  REQUIRE(f.runner.jobs.size() == 2);
  CHECK(f.runner.jobs[1].first.level == bot_level::strong);

  f.turns.schedule(bot_to_act(3, 5, bot_level::greedy));
  f.turns.schedule(bot_turns::position{});  // nobody to act: nothing pending
  CHECK(f.turns.turn_seat() == -1);
  CHECK(f.timer->pending() == 0);
}

TEST_CASE("bot_turns: play_now searches at once and holds while its seat is still to act") {
  turns_fixture f;
  f.turns.play_now(2, bot_level::strong, 7);
  REQUIRE(f.runner.jobs.size() == 1);  // no pause, no timer
  CHECK(f.timer->pending() == 0);
  CHECK(f.runner.jobs[0].first.level == bot_level::strong);
  bot_turns::position p;  // a person's seat: no bot of its own, yet the forced turn stays
  p.seat = 2;
  p.moves = 7;
  f.turns.schedule(p);
  CHECK(f.turns.turn_seat() == 2);
  f.room.moves = 7;
  f.runner.jobs[0].second(bot_result{});
  CHECK(f.room.played.size() == 1);
}

TEST_CASE("bot_turns: an absent owner's seat goes to a bot after takeover_after seconds") {
  turns_fixture f;
  bot_turns::position p;
  p.seat = 0;
  p.moves = 3;
  p.absent = true;
  f.turns.schedule(p);
  CHECK(f.turns.absent_seat() == 0);
  f.turns.schedule(p);  // still away: the same wait goes on
  f.timer->advance(std::chrono::seconds(29));
  CHECK(f.room.taken_over.empty());
  f.timer->advance(std::chrono::seconds(1));
  REQUIRE(f.room.taken_over.size() == 1);
  CHECK(f.room.taken_over[0] == std::pair{0, bot_level::strong});
  CHECK(f.turns.absent_seat() == -1);

  // Back in time: no takeover.
  f.turns.schedule(p);
  f.timer->advance(std::chrono::seconds(10));
  p.absent = false;
  f.turns.schedule(p);
  f.timer->advance(std::chrono::seconds(60));
  CHECK(f.room.taken_over.size() == 1);

  // Without takeover_after, an absent seat just waits.
  f.turns.set_settings(800, 0, bot_level::greedy);
  p.absent = true;
  f.turns.schedule(p);
  CHECK(f.turns.absent_seat() == -1);
  CHECK(f.timer->pending() == 0);
}

TEST_CASE("bot_turns: without a runner, bots never act") {
  turns_room room;
  bot_turns turns{"s", "r", nullptr, room.hooks()};
  auto timer = std::make_shared<fake_timer>();
  turns.set_timer(timer);
  CHECK_FALSE(turns.ready());
  turns.schedule(bot_to_act(0, 0, bot_level::random));
  turns.play_now(0, bot_level::random, 0);
  CHECK(turns.turn_seat() == -1);
  CHECK(timer->pending() == 0);
}
