// Hands functions from a thread outside the I/O pool (the journal's writer) to the I/O threads in
// batches: the first function of a batch posts one drain onto the executor, the others only
// append, so that a commit that makes many rooms' writes durable wakes an I/O thread once rather
// than once per room. Thread-safe; functions run on an I/O thread, in the order pushed.
#pragma once
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/post.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace carcassonne::server {

class completion_queue : public std::enable_shared_from_this<completion_queue> {
 public:
  explicit completion_queue(boost::asio::any_io_executor executor)
      : executor_(std::move(executor)) {}

  void push(std::function<void()> f) {
    {
      std::lock_guard lock(mutex_);
      pending_.push_back(std::move(f));
      if (pending_.size() > 1) return;  // a drain is already on its way
    }
    boost::asio::post(executor_, [self = shared_from_this()] { self->drain(); });
  }

 private:
  void drain() {
    std::vector<std::function<void()>> batch;
    {
      std::lock_guard lock(mutex_);
      batch.swap(pending_);
    }
    for (auto& f : batch) f();
  }

  boost::asio::any_io_executor executor_;
  std::mutex mutex_;
  std::vector<std::function<void()>> pending_;
};

}  // namespace carcassonne::server
