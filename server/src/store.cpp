// The store's writer queue (group commit), shared by both databases, and the choice between them.
#include "carcassonne/server/store.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "background_thread.hpp"
#include "store_postgres.hpp"
#include "store_sqlite.hpp"

namespace carcassonne::server {

namespace {
constexpr std::size_t max_batch = 4096;  // writes per transaction
}

bool is_postgres_url(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::unique_ptr<store> store::open(const store_options& options, std::string& error) {
  if (is_postgres_url(options.path)) return postgres_store::open(options, error);
  return sqlite_store::open(options, error);
}

store::~store() = default;

std::vector<std::string> store::unfinished_ids(std::string& error) {
  std::vector<std::string> out;
  for (const auto& r : unfinished_rooms(error)) out.push_back(r.id);
  return out;
}

bool store::take_room(const std::string&, std::uint64_t, std::string&) {
  return true;
}

std::uint64_t store::recorded_generation(const std::string&, std::string&) {
  return 0;
}

void store::start_writer() {
  writer_ = std::thread([this] {
    // Woken by the I/O threads, it must not preempt them (background_thread.cpp).
    run_in_background("database writer");
    writer_loop();
  });
}

void store::stop_writer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
}

void store::wake_through(wake_up_poster post) {
  std::lock_guard lock(mutex_);
  wake_up_ = std::move(post);
}

void store::submit(store_write w, done_fn done) {
  bool direct = false;
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(std::move(w), std::move(done));
    ++queued_;
    direct = !wake_up_;
    if (direct) {
      may_take_ = true;
    } else {
      if (wake_up_posted_) return;
      wake_up_posted_ = true;
    }
  }
  if (direct) {
    wake_.notify_one();
    return;
  }
  wake_up_([this] {
    {
      std::lock_guard lock(mutex_);
      wake_up_posted_ = false;
      may_take_ = true;
    }
    wake_.notify_one();
  });
}

void store::flush() {
  std::unique_lock lock(mutex_);
  if (!queue_.empty()) may_take_ = true;  // the I/O threads may have stopped: no wake-up would come
  wake_.notify_one();
  const auto target = queued_;
  drained_.wait(lock, [&] { return completed_ >= target; });
}

void store::writer_loop() {
  std::vector<std::pair<store_write, done_fn>> batch;
  std::vector<const store_write*> writes_of_batch;
  std::vector<char> fenced;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || (may_take_ && !queue_.empty()); });
      if (queue_.empty()) return;  // stopping, and everything committed
      while (!queue_.empty() && batch.size() < max_batch) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      may_take_ = !queue_.empty();  // what is left beyond max_batch has had its wake-up
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& entry : batch) writes_of_batch.push_back(&entry.first);
    fenced.assign(batch.size(), 0);
    std::string error;
    const bool ok = commit_batch(writes_of_batch, fenced, error);
    if (!ok) {
      spdlog::error("database: a commit of {} writes failed: {}", batch.size(), error);
      failures.fetch_add(1);
    }
    commits.fetch_add(1, std::memory_order_relaxed);
    writes.fetch_add(static_cast<std::int64_t>(batch.size()), std::memory_order_relaxed);
    commit_ns.fetch_add(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count(),
        std::memory_order_relaxed);
    for (std::size_t i = 0; i < batch.size(); ++i)
      if (batch[i].second) batch[i].second(write_result{ok && !fenced[i], ok && fenced[i] != 0});
    {
      std::lock_guard lock(mutex_);
      completed_ += batch.size();
    }
    drained_.notify_all();
    batch.clear();
    writes_of_batch.clear();
  }
}

}  // namespace carcassonne::server
