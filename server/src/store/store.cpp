// The store's writer queue (group commit), shared by both databases, and the choice between them.
#include "store/store.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "base/background_thread.hpp"
#include "store/store_postgres.hpp"
#include "store/store_sqlite.hpp"

namespace carcassonne::server {

namespace {
constexpr std::size_t max_batch = 4096;  // writes per transaction

bool carries_notices(const store_write* w) {
  return std::visit(
      [](const auto& op) {
        if constexpr (requires { op.notices; })
          return !op.notices.empty();
        else
          return false;
      },
      *w);
}
// How long a degraded store waits before probing the database again: doubled after every
// failed probe, from the first to the last.
constexpr std::chrono::milliseconds first_probe{50}, last_probe{5000};
}  // namespace

const std::string& room_of(const store_write& w) {
  return std::visit(
      [](const auto& op) -> const std::string& {
        if constexpr (std::is_same_v<std::decay_t<decltype(op)>, move_write>)
          return op.room;
        else
          return op.id;
      },
      w);
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

std::string store::fault() const {
  std::lock_guard lock(mutex_);
  return degraded_ ? fault_ : std::string();
}

void store::on_recovered(std::function<void()> f) {
  std::lock_guard calling(recovered_mutex_);  // a call under way ends first
  recovered_ = std::move(f);
}

void store::on_notices(std::function<void()> f) {
  std::lock_guard calling(recovered_mutex_);
  notices_written_ = std::move(f);
}

void store::call_recovered() {
  std::lock_guard calling(recovered_mutex_);
  if (recovered_) recovered_();
}

void store::request_recovery_call() {
  {
    std::lock_guard lock(mutex_);
    recovery_call_ = true;
  }
  wake_.notify_one();
}

void store::readmit(const std::string& room) {
  std::vector<done_fn> refused;
  {
    std::lock_guard lock(mutex_);
    for (auto it = queue_.begin(); it != queue_.end();)
      if (room_of(it->first) == room) {
        refused.push_back(std::move(it->second));
        it = queue_.erase(it);
      } else {
        ++it;
      }
    failed_rooms_.erase(room);
  }
  for (auto& done : refused)
    if (done) done(write_result{});
  {
    std::lock_guard lock(mutex_);
    completed_ += refused.size();
  }
  drained_.notify_all();
}

void store::set_degraded(bool on, const std::string& why) {
  {
    std::lock_guard lock(mutex_);
    fault_ = why;
    if (degraded_.exchange(on) == on) return;
    if (!on) recovery_call_ = false;
  }
  if (on) {
    spdlog::error("database: degraded ({}): moves are refused until it answers again", why);
  } else {
    spdlog::info("database: answers again");
    call_recovered();
  }
}

void store::writer_loop() {
  std::vector<std::pair<store_write, done_fn>> batch;
  std::vector<const store_write*> writes_of_batch;
  std::vector<char> fenced, refused;  // per write of the batch
  auto wait = first_probe;
  for (;;) {
    bool probe_now = false, call_now = false;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [&] {
        return stopping_ || (may_take_ && !queue_.empty()) || (recovery_call_ && !degraded_);
      };
      if (degraded_)
        probe_now = !wake_.wait_for(lock, wait, ready);
      else
        wake_.wait(lock, ready);
      if (!probe_now && recovery_call_ && !degraded_ && !stopping_) {
        recovery_call_ = false;
        call_now = true;
      } else if (!probe_now) {
        if (queue_.empty()) return;  // stopping, and everything committed
        while (!queue_.empty() && batch.size() < max_batch) {
          refused.push_back(failed_rooms_.count(room_of(queue_.front().first)) != 0);
          batch.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
        may_take_ = !queue_.empty();  // what is left beyond max_batch has had its wake-up
      }
    }
    if (call_now || probe_now) {
      std::string error;
      if (call_now) {
        call_recovered();
      } else if (probe(error)) {
        wait = first_probe;
        set_degraded(false, "");
      } else {
        wait = std::min(wait * 2, last_probe);
        std::lock_guard lock(mutex_);
        fault_ = error;
      }
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < batch.size(); ++i)
      if (!refused[i]) writes_of_batch.push_back(&batch[i].first);
    fenced.assign(writes_of_batch.size(), 0);
    std::string error;
    const bool ok = writes_of_batch.empty() || commit_batch(writes_of_batch, fenced, error);
    if (!ok) {
      spdlog::error("database: a commit of {} writes failed: {}", writes_of_batch.size(), error);
      failures.fetch_add(1);
      std::lock_guard lock(mutex_);
      for (const auto* w : writes_of_batch) failed_rooms_.insert(room_of(*w));
    }
    if (!writes_of_batch.empty()) {
      commits.fetch_add(1, std::memory_order_relaxed);
      writes.fetch_add(static_cast<std::int64_t>(writes_of_batch.size()),
                       std::memory_order_relaxed);
      commit_ns.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::steady_clock::now() - t0)
                              .count(),
                          std::memory_order_relaxed);
      if (!ok) {
        wait = first_probe;
        set_degraded(true, error);
      } else if (degraded_) {
        set_degraded(false, "");
      }
    }
    if (ok && std::any_of(writes_of_batch.begin(), writes_of_batch.end(), carries_notices)) {
      std::lock_guard calling(recovered_mutex_);
      if (notices_written_) notices_written_();
    }
    for (std::size_t i = 0, k = 0; i < batch.size(); ++i) {
      write_result r;
      if (!refused[i]) {
        r = write_result{ok && !fenced[k], ok && fenced[k] != 0};
        ++k;
      }
      if (batch[i].second) batch[i].second(r);
    }
    {
      std::lock_guard lock(mutex_);
      completed_ += batch.size();
    }
    drained_.notify_all();
    batch.clear();
    writes_of_batch.clear();
    refused.clear();
  }
}

}  // namespace carcassonne::server
