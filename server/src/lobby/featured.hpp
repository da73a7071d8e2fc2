// Featured games (docs/protocol.md "Featured games", GET /api/featured): of the public rooms
// whose game is being played, the most watched. A plain function over the lobby's list, and the
// answer shared by the requests of one second.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>

namespace carcassonne::server {

inline constexpr std::size_t featured_default = 5, featured_max = 20;

// Of `rooms` (the lobby's room summaries, oldest first), the `n` in state "playing" with the
// most spectators, most first; equal counts keep the list's order (the older room first).
nlohmann::json pick_featured(const nlohmann::json& rooms, std::size_t n);

// The featured games worked out at most once per `max_age` however many ask: finding them reads
// every page of the public rooms (the cluster's, with --redis), so a crowd polling the lobby
// must not make each request pay for it. Any thread; the time is the caller's (tests pass theirs).
class featured_cache {
 public:
  using clock = std::chrono::steady_clock;
  explicit featured_cache(clock::duration max_age = std::chrono::seconds(1)) : max_age_(max_age) {}

  // The first `n` (at most featured_max) featured games at `now`. `public_rooms` lists the
  // public rooms; it is called only when the last answer is `max_age` old or more, and callers
  // meanwhile wait for that one answer rather than work it out again.
  nlohmann::json get(std::size_t n, clock::time_point now,
                     const std::function<nlohmann::json()>& public_rooms);

 private:
  std::mutex mutex_;
  std::optional<clock::time_point> computed_;
  nlohmann::json top_ = nlohmann::json::array();  // pick_featured(rooms, featured_max)
  clock::duration max_age_;
};

}  // namespace carcassonne::server
