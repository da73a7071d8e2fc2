#include "match/asio_room_timer.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <mutex>

namespace carcassonne::server {

namespace {

class asio_room_timer final : public room_timer,
                              public std::enable_shared_from_this<asio_room_timer> {
 public:
  explicit asio_room_timer(boost::asio::any_io_executor strand) : strand_(std::move(strand)) {}

  clock::time_point now() const override { return clock::now(); }

  handle call_at(clock::time_point when, std::function<void()> fn) override {
    auto timer = std::make_shared<boost::asio::steady_timer>(strand_, when);
    handle h;
    {
      std::lock_guard lock(mutex_);
      h = ++last_;
      pending_[h] = timer;
    }
    // The timer holds only a weak reference: a room torn down cancels nothing by hand.
    timer->async_wait(
        [weak = weak_from_this(), h, fn = std::move(fn)](boost::system::error_code ec) {
          auto self = weak.lock();
          if (!self || ec) return;
          {
            std::lock_guard lock(self->mutex_);
            if (!self->pending_.erase(h)) return;  // cancelled meanwhile
          }
          fn();
        });
    return h;
  }

  void cancel(handle h) override {
    std::shared_ptr<boost::asio::steady_timer> timer;
    {
      std::lock_guard lock(mutex_);
      auto it = pending_.find(h);
      if (it == pending_.end()) return;
      timer = std::move(it->second);
      pending_.erase(it);
    }
    timer->cancel();
  }

  ~asio_room_timer() override {
    for (auto& [h, t] : pending_) t->cancel();
  }

 private:
  boost::asio::any_io_executor strand_;
  std::mutex mutex_;
  handle last_ = 0;
  std::map<handle, std::shared_ptr<boost::asio::steady_timer>> pending_;
};

}  // namespace

room_timer_ptr make_asio_room_timer(boost::asio::any_io_executor strand) {
  return std::make_shared<asio_room_timer>(std::move(strand));
}

}  // namespace carcassonne::server
