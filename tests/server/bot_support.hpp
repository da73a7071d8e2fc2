// Bots in room tests: a runner that holds every search until the test runs it (so a test
// decides when a bot's move comes back), and a poster that runs at once (the test's thread is
// the room's strand).
#pragma once
#include <functional>
#include <utility>
#include <vector>

#include "bots/bot_runner.hpp"
#include "room/room.hpp"

namespace carcassonne::server::test {

struct held_runner final : bot_runner {
  std::vector<std::pair<bot_job, std::function<void(bot_result)>>> jobs;
  void submit(bot_job job, std::function<void(bot_result)> done) override {
    jobs.emplace_back(std::move(job), std::move(done));
  }
  // Runs the held searches (on this thread); returns how many there were.
  std::size_t run_all() {
    auto now = std::move(jobs);
    jobs.clear();
    for (auto& [job, done] : now) done(run_bot_job(job));
    return now.size();
  }
};

inline room::poster at_once() {
  return [](std::function<void()> f) { f(); };
}

}  // namespace carcassonne::server::test
