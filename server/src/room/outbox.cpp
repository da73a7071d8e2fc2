#include "room/outbox.hpp"

#include <algorithm>
#include <utility>

namespace carcassonne::server {

void outbox::send(const client_ptr& c, frame_ptr frame) {
  if (!c) return;
  if (held_.empty() && durable_ >= issued_) return c->deliver(std::move(frame));
  held_.push_back({issued_, c, std::move(frame)});
}

void outbox::durable(std::uint64_t n, std::size_t connections) {
  durable_ = std::max(durable_, n);
  std::vector<std::pair<client_link*, std::vector<frame_ptr>>> ready;
  std::vector<client_ptr> keep;  // the connections, alive until their frames are handed over
  ready.reserve(connections);
  keep.reserve(connections);
  while (!held_.empty() && held_.front().needs <= durable_) {
    auto& h = held_.front();
    auto to = std::find_if(ready.begin(), ready.end(),
                           [&](const auto& r) { return r.first == h.client.get(); });
    if (to == ready.end()) {
      keep.push_back(h.client);
      to = ready.insert(ready.end(), {h.client.get(), {}});
      to->second.reserve(2);  // a mover's answer and patch
    }
    to->second.push_back(std::move(h.frame));
    held_.pop_front();
  }
  for (auto& [client, frames] : ready) client->deliver_all(std::move(frames));
}

}  // namespace carcassonne::server
