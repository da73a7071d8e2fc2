#include "lobby/featured.hpp"

#include <algorithm>
#include <vector>

namespace carcassonne::server {

nlohmann::json pick_featured(const nlohmann::json& rooms, std::size_t n) {
  std::vector<const nlohmann::json*> playing;
  for (const auto& r : rooms)
    if (r.value("state", "") == "playing") playing.push_back(&r);
  const auto watchers = [](const nlohmann::json* r) { return r->value("spectators", 0); };
  std::stable_sort(playing.begin(), playing.end(),
                   [&](const auto* a, const auto* b) { return watchers(a) > watchers(b); });
  auto out = nlohmann::json::array();
  for (std::size_t i = 0; i < playing.size() && i < n; ++i) out.push_back(*playing[i]);
  return out;
}

nlohmann::json featured_cache::get(std::size_t n, clock::time_point now,
                                   const std::function<nlohmann::json()>& public_rooms) {
  std::lock_guard lock(mutex_);
  // A `now` before the last computation (read before another caller took the lock) is fresh.
  if (!computed_ || now - *computed_ >= max_age_) {
    top_ = pick_featured(public_rooms(), featured_max);
    computed_ = now;
  }
  auto out = nlohmann::json::array();
  for (std::size_t i = 0; i < top_.size() && i < n; ++i) out.push_back(top_[i]);
  return out;
}

}  // namespace carcassonne::server
