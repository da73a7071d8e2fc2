#include "room/patch_throttle.hpp"

#include <utility>

namespace carcassonne::server {

patch_throttle::~patch_throttle() {
  if (timer_ && pending_) timer_->cancel(pending_);
}

void patch_throttle::changed() {
  if (!timer_) return send_();
  if (pending_) return;
  const auto now = timer_->now();
  if (!last_ || now - *last_ >= interval_) return send_();  // shown() notes the time
  pending_ = timer_->call_at(*last_ + interval_, [this] {
    pending_ = 0;
    send_();
  });
}

void patch_throttle::shown() {
  if (!timer_) return;
  last_ = timer_->now();
  if (pending_) timer_->cancel(std::exchange(pending_, 0));
}

}  // namespace carcassonne::server
