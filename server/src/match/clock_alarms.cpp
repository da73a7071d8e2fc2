#include "match/clock_alarms.hpp"

#include <utility>

namespace carcassonne::server {

clock_alarms::~clock_alarms() {
  if (!timer_) return;
  for (const auto h : {timeout_, checkpoint_, away_})
    if (h) timer_->cancel(h);
}

void clock_alarms::timeout_at(std::optional<time_point> when) {
  if (!timer_) return;
  if (timeout_) timer_->cancel(std::exchange(timeout_, 0));
  if (!when) return;
  timeout_ = timer_->call_at(*when, [this] {
    timeout_ = 0;
    hooks_.timeout();
  });
}

void clock_alarms::timeout_after(room_timer::clock::duration d) {
  if (!timer_) return;
  timeout_ = timer_->call_after(d, [this] {
    timeout_ = 0;
    hooks_.timeout();
  });
}

void clock_alarms::checkpoint_after(room_timer::clock::duration d) {
  if (!timer_ || checkpoint_) return;
  checkpoint_ = timer_->call_after(d, [this] {
    checkpoint_ = 0;
    hooks_.checkpoint();
  });
}

void clock_alarms::away_at(std::optional<time_point> when) {
  if (!timer_) return;
  if (away_) timer_->cancel(std::exchange(away_, 0));
  if (!when) return;
  away_ = timer_->call_at(*when, [this] {
    away_ = 0;
    hooks_.away();
  });
}

}  // namespace carcassonne::server
