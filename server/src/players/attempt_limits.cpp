#include "players/attempt_limits.hpp"

#include <algorithm>
#include <cmath>

namespace carcassonne::server {

double attempt_limits::spent_now(const bucket& b, const budget& k, clock::time_point now) const {
  const double back = std::chrono::duration<double>(now - b.at).count() /
                      std::chrono::duration<double>(k.refill).count();
  return std::max(0.0, b.spent - back);
}

long long attempt_limits::wait_of(const std::map<std::string, bucket>& m, const std::string& key,
                                  const budget& k, clock::time_point now) const {
  const auto it = m.find(key);
  if (it == m.end()) return 0;
  const double over = spent_now(it->second, k, now) - (k.tries - 1);
  if (over <= 0) return 0;
  return static_cast<long long>(std::ceil(over * static_cast<double>(k.refill.count())));
}

long long attempt_limits::wait(const std::string& address, const std::string& name_key,
                               clock::time_point now) {
  std::lock_guard lock(mutex_);
  return std::max(wait_of(addresses_, address, per_address_, now),
                  wait_of(names_, name_key, per_name_, now));
}

void attempt_limits::spend(std::map<std::string, bucket>& m, const std::string& key,
                           const budget& k, clock::time_point now) {
  if (m.size() >= max_keys_ && !m.contains(key)) {
    // Full: the buckets that have given every try back are forgotten; if none has, the map is
    // cleared rather than grown (an attacker filling it gains a fresh budget, never memory).
    std::erase_if(m, [&](const auto& e) { return spent_now(e.second, k, now) <= 0; });
    if (m.size() >= max_keys_) m.clear();
  }
  auto& b = m[key];
  b.spent = spent_now(b, k, now) + 1;
  b.at = now;
}

void attempt_limits::failed(const std::string& address, const std::string& name_key,
                            clock::time_point now) {
  std::lock_guard lock(mutex_);
  spend(addresses_, address, per_address_, now);
  spend(names_, name_key, per_name_, now);
}

}  // namespace carcassonne::server
