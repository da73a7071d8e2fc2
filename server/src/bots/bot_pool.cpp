#include "bots/bot_pool.hpp"

#include <spdlog/spdlog.h>

#include "base/background_thread.hpp"

namespace carcassonne::server {

bot_result run_bot_job(const bot_job& job) {
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + job.think_limit;
  bot_budget budget{job.playouts,
                    [deadline] { return std::chrono::steady_clock::now() >= deadline; }};
  bot_result r{choose_move(job.info, job.level, job.seed, budget), 0};
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

bot_pool::bot_pool(int threads, bool idle_priority, metrics* m) : metrics_(m) {
  for (int i = 0; i < std::max(1, threads); ++i)
    threads_.emplace_back([this, idle_priority] {
      if (idle_priority) run_at_lowest_priority("bot worker");
      work();
    });
}

bot_pool::~bot_pool() {
  stop();
}

void bot_pool::submit(bot_job job, std::function<void(bot_result)> done) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    if (!job.room.empty())
      for (auto& waiting : queue_)
        if (waiting.first.room == job.room) {
          waiting = {std::move(job), std::move(done)};
          return;  // no new job: nobody to wake
        }
    queue_.emplace_back(std::move(job), std::move(done));
    if (metrics_) metrics_->bot_searches_queued.fetch_add(1, std::memory_order_relaxed);
  }
  wake_.notify_one();
}

void bot_pool::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    if (metrics_) metrics_->bot_searches_queued.fetch_sub(static_cast<std::int64_t>(queue_.size()));
    queue_.clear();
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void bot_pool::work() {
  for (;;) {
    std::pair<bot_job, std::function<void(bot_result)>> next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
      if (metrics_) {
        metrics_->bot_searches_queued.fetch_sub(1, std::memory_order_relaxed);
        metrics_->bot_searches_running.fetch_add(1, std::memory_order_relaxed);
      }
    }
    try {
      const bot_result r = run_bot_job(next.first);
      if (metrics_) {
        metrics_->bot_searches_running.fetch_sub(1, std::memory_order_relaxed);
        metrics_->bot_think_ns.fetch_add(static_cast<std::int64_t>(r.seconds * 1e9),
                                         std::memory_order_relaxed);
        metrics_->bot_playouts.fetch_add(r.choice.playouts, std::memory_order_relaxed);
      }
      next.second(r);
    } catch (const std::exception& e) {  // nothing may escape a worker thread
      if (metrics_) metrics_->bot_searches_running.fetch_sub(1, std::memory_order_relaxed);
      spdlog::error("bot search failed: {}", e.what());
    }
  }
}

}  // namespace carcassonne::server
