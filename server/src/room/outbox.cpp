#include "room/outbox.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace carcassonne::server {

void outbox::send(const client_ptr& c, frame_ptr frame) {
  if (!c) return;
  if (!holding()) return out_.send(c, std::move(frame));
  held_.push_back({issued_, c, std::move(frame)});
}

void outbox::send_all(const std::vector<client_ptr>& cs, const frame_ptr& frame) {
  if (holding()) {
    for (const auto& c : cs)
      if (c) held_.push_back({issued_, c, frame});
    return;
  }
  std::vector<handover::group> groups;
  groups.reserve(cs.size());
  for (const auto& c : cs)
    if (c) groups.push_back({c, {frame}});
  out_.send_all(std::move(groups));
}

void outbox::durable(std::uint64_t n, std::size_t connections) {
  durable_ = std::max(durable_, n);
  std::vector<handover::group> ready;  // in the order of each connection's first frame
  std::unordered_map<const client_link*, std::size_t> at;  // a connection's place in `ready`
  ready.reserve(connections);
  at.reserve(connections);
  while (!held_.empty() && held_.front().needs <= durable_) {
    auto& h = held_.front();
    const auto [place, added] = at.try_emplace(h.client.get(), ready.size());
    if (added) ready.push_back({std::move(h.client), {}});
    ready[place->second].frames.push_back(std::move(h.frame));
    held_.pop_front();
  }
  out_.send_all(std::move(ready));
}

}  // namespace carcassonne::server
