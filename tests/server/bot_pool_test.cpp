// The bot workers: searches run on the pool's threads, never the caller's, at most as many at
// once as it has threads; stop() drops what waits. The bot settings of the configuration.
#include <doctest/doctest.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "base/config.hpp"
#include "bots/bot_pool.hpp"
#include "carcassonne/protocol/json_codec.hpp"

using namespace carcassonne;
using namespace carcassonne::server;

namespace {

bot_job job_for_a_new_game() {
  game_setup setup;
  setup.seats = 2;
  setup.seed = "pool-test";
  auto g = new_game(setup);
  REQUIRE(g.ok());
  bot_job job;
  job.info = information_set_of(g.value(), 0);
  job.level = bot_level::random;
  return job;
}

}  // namespace

TEST_CASE("the bot pool searches on its own thread: one worker thread, the caller never") {
  metrics stats;
  bot_pool pool(1, true, &stats);
  const auto job = job_for_a_new_game();
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::vector<std::int64_t> running;  // seen by each callback (checked here: one thread asserts)
  std::vector<move> chosen;
  int done = 0;
  std::promise<void> all;
  for (int i = 0; i < 5; ++i) {
    pool.submit(job, [&](bot_result r) {
      std::lock_guard lock(mutex);
      threads.insert(std::this_thread::get_id());
      running.push_back(stats.bot_searches_running.load());
      chosen.push_back(r.choice.chosen);
      if (++done == 5) all.set_value();
    });
  }
  REQUIRE(all.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  pool.stop();
  for (auto n : running) CHECK(n == 0);  // each search is counted out before its result
  const auto legal = legal_actions(job.info.state);
  for (const auto& m : chosen) CHECK(std::find(legal.begin(), legal.end(), m) != legal.end());
  CHECK(threads.size() == 1);
  CHECK(threads.count(std::this_thread::get_id()) == 0);
  CHECK(stats.bot_searches_running.load() == 0);
  CHECK(stats.bot_searches_queued.load() == 0);
  // After stop, jobs are dropped: nothing runs.
  pool.submit(job, [&](bot_result) { FAIL("a job ran after stop"); });
  CHECK(stats.bot_searches_queued.load() == 0);
}

TEST_CASE(
    "the bot pool: one waiting search a room, in turn with the others, at the lowest priority") {
  metrics stats;
  bot_pool pool(1, true, &stats);
  auto job = job_for_a_new_game();
  std::mutex mutex;
  std::vector<std::string> order;
  int policy = -1, nice = 0;
  std::promise<void> release, first_running, all;
  auto released = release.get_future().share();
  // The one worker is held by a first search, so that the others wait in the queue.
  job.room = "held";
  pool.submit(job, [&](bot_result) {
    policy = sched_getscheduler(0);
    nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    first_running.set_value();
    released.wait();
  });
  REQUIRE(first_running.get_future().wait_for(std::chrono::seconds(30)) ==
          std::future_status::ready);
  const auto submit = [&](const std::string& room, const std::string& label) {
    job.room = room;
    pool.submit(job, [&, label](bot_result) {
      std::lock_guard lock(mutex);
      order.push_back(label);
      if (order.size() == 4) all.set_value();
    });
  };
  submit("a", "a1");
  submit("b", "b1");
  submit("a", "a2");  // room a's newer search takes a1's place: a1 never runs
  submit("c", "c1");
  submit("", "x1");  // no room: never replaced
  CHECK(stats.bot_searches_queued.load() == 4);
  release.set_value();
  REQUIRE(all.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  pool.stop();
  CHECK(order == std::vector<std::string>{"a2", "b1", "c1", "x1"});
  CHECK(stats.bot_searches_queued.load() == 0);
  // The worker gives way to every ordinary thread: SCHED_IDLE, or niceness 19 where refused.
  CHECK((policy == SCHED_IDLE || nice == 19));
}

TEST_CASE("the bot settings of the configuration: flags, defaults and bad values") {
  std::string message;
  bool help = false;
  const std::vector<std::string> none;
  auto d = parse_config(none, false, message, help);
  REQUIRE(d);
  CHECK(d->bot_threads == 1);
  CHECK(d->bot_playouts == 2000);
  CHECK(d->bot_think_ms == 1000);
  CHECK(d->bots_at_idle_priority);
  const std::vector<std::string> args{
      "--bot-threads",  "3",     "--bot-playouts", "500", "--bot-think-ms=250",
      "--bot-priority", "normal"};
  auto c = parse_config(args, false, message, help);
  REQUIRE_MESSAGE(c, message);
  CHECK(c->bot_threads == 3);
  CHECK(c->bot_playouts == 500);
  CHECK(c->bot_think_ms == 250);
  CHECK_FALSE(c->bots_at_idle_priority);
  const std::vector<std::string> bad{"--bot-threads", "0"};
  CHECK_FALSE(parse_config(bad, false, message, help));
  CHECK(message == "invalid value for --bot-threads: '0'");
  const std::vector<std::string> bad_priority{"--bot-priority", "high"};
  CHECK_FALSE(parse_config(bad_priority, false, message, help));
  CHECK(message == "invalid value for --bot-priority: 'high'");
  CHECK(config_help().find("CARCASSONNE_BOT_THREADS") != std::string::npos);
}
