// The server's bot workers: a fixed number of threads (--bot-threads), so at most that many
// searches run at once, never on an I/O thread or a room's strand, and by default at the lowest
// CPU priority (run_at_lowest_priority): the I/O threads always come first, so bots never slow a
// person's game (--bot-priority normal gives them an ordinary thread's share, for a machine whose
// other work would starve them). Jobs wait in order of arrival; a room has at most one job waiting
// (a newer one replaces it in its place, the older one's `done` is never called), so the queue is
// bounded by the number of rooms and served round-robin among them. Thread-safe.
#pragma once
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "base/metrics.hpp"
#include "bots/bot_runner.hpp"

namespace carcassonne::server {

class bot_pool final : public bot_runner {
 public:
  bot_pool(int threads, bool idle_priority, metrics* m);
  ~bot_pool() override;  // stop()
  bot_pool(const bot_pool&) = delete;
  bot_pool& operator=(const bot_pool&) = delete;

  void submit(bot_job job, std::function<void(bot_result)> done) override;
  // Forgets waiting jobs, lets running searches end and joins the threads; later jobs are
  // dropped. Call before the rooms and the I/O context go (server teardown).
  void stop();

 private:
  void work();

  metrics* metrics_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<bot_job, std::function<void(bot_result)>>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace carcassonne::server
