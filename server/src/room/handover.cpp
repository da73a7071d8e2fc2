#include "room/handover.hpp"

#include <utility>

namespace carcassonne::server {

void handover::hand_over(group& g) {
  if (g.frames.size() == 1)
    g.client->deliver(std::move(g.frames.front()));
  else
    g.client->deliver_all(std::move(g.frames));
}

void handover::send(const client_ptr& c, frame_ptr frame) {
  if (!c) return;
  if (!waits(c.get())) return c->deliver(std::move(frame));
  std::vector<frame_ptr> frames;
  frames.push_back(std::move(frame));
  queue({c, std::move(frames)});
}

void handover::send_all(std::vector<group> groups) {
  std::size_t now = 0;
  for (auto& g : groups) {
    if (!g.client || g.frames.empty()) continue;
    if (waits(g.client.get()) || (post_ && now == step_)) {
      queue(std::move(g));
    } else {
      ++now;
      hand_over(g);
    }
  }
}

void handover::queue(group g) {
  if (!post_) return hand_over(g);  // no steps: nothing ever waits
  ++waiting_[g.client.get()];
  queue_.push_back(std::move(g));
  if (posted_) return;
  posted_ = true;
  post_([this] { step(); });
}

void handover::hand_over_front() {
  auto g = std::move(queue_.front());
  queue_.pop_front();
  if (const auto w = waiting_.find(g.client.get()); --w->second == 0) waiting_.erase(w);
  hand_over(g);
}

void handover::step() {
  posted_ = false;
  for (std::size_t n = 0; n < step_ && !queue_.empty(); ++n) hand_over_front();
  if (queue_.empty()) return;
  posted_ = true;
  post_([this] { step(); });
}

void handover::flush() {
  while (!queue_.empty()) hand_over_front();
}

}  // namespace carcassonne::server
