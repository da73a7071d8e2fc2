// What a room needs to have a bot's move computed away from its strand: a job holding only the
// seat's information set (never the real state), and a runner that computes it on other threads.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "carcassonne/engine/bot.hpp"

namespace carcassonne::server {

struct bot_job {
  // The room asking: a room has at most one search waiting, a newer one takes the older's place
  // in the queue (the older's answer would be stale). "" for none (never replaced).
  std::string room;
  information_set info;  // information_set_of(state, seat): all a bot may see
  bot_level level = bot_level::random;
  std::uint64_t seed = 0;
  int playouts = 2000;
  std::chrono::milliseconds think_limit{1000};  // the search stops once this much time has passed
};

struct bot_result {
  bot_choice choice;
  double seconds = 0;  // time spent thinking
};

class bot_runner {
 public:
  virtual ~bot_runner() = default;
  // Thread-safe. Computes the job's move off the caller's thread, then calls `done` with it on
  // a thread of the runner's (the caller posts back onto its own strand).
  virtual void submit(bot_job job, std::function<void(bot_result)> done) = 0;
};

// Limits a server gives every room's bots (config: --bot-playouts, --bot-think-ms).
struct bot_limits {
  int playouts = 2000;
  std::chrono::milliseconds think_limit{1000};
};

// Runs one job on the calling thread: the search with its playout budget and its deadline.
bot_result run_bot_job(const bot_job& job);

}  // namespace carcassonne::server
