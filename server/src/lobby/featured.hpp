// Featured games (docs/protocol.md "Featured games", GET /api/featured): of the public rooms
// whose game is being played, the most watched. A plain function over the lobby's list.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>

namespace carcassonne::server {

inline constexpr std::size_t featured_default = 5, featured_max = 20;

// Of `rooms` (the lobby's room summaries, oldest first), the `n` in state "playing" with the
// most spectators, most first; equal counts keep the list's order (the older room first).
nlohmann::json pick_featured(const nlohmann::json& rooms, std::size_t n);

}  // namespace carcassonne::server
