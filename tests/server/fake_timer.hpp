// A room_timer for room tests: time stands still until the test advances it, and due calls run
// in order of their time (then of their scheduling), on the test's thread.
#pragma once
#include <map>
#include <utility>

#include "match/room_timer.hpp"

namespace carcassonne::server::test {

class fake_timer final : public room_timer {
 public:
  clock::time_point now() const override { return now_; }

  handle call_at(clock::time_point when, std::function<void()> fn) override {
    const handle h = ++last_;
    pending_.emplace(std::pair{when, h}, std::move(fn));
    return h;
  }

  void cancel(handle h) override {
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
      if (it->first.second == h) return void(pending_.erase(it));
  }

  // Moves time forward by d, running every call that falls due (calls they schedule too).
  void advance(clock::duration d) {
    const auto until = now_ + d;
    while (!pending_.empty() && pending_.begin()->first.first <= until) {
      auto node = pending_.extract(pending_.begin());
      now_ = std::max(now_, node.key().first);
      node.mapped()();
    }
    now_ = until;
  }

  std::size_t pending() const { return pending_.size(); }

 private:
  clock::time_point now_{std::chrono::hours(1)};
  handle last_ = 0;
  std::map<std::pair<clock::time_point, handle>, std::function<void()>> pending_;
};

}  // namespace carcassonne::server::test
