// The Peasant Revolts: the expansion's own state (the tiles set aside unseen).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace carcassonne::peasant_revolts {

inline constexpr std::uint8_t protected_mark = 1;  // figure_on_board::mark of a lying follower
inline constexpr int set_aside_count = 3;

struct state {
  std::vector<std::uint8_t> set_aside;  // tile types set aside at setup: secret, never shown

  std::size_t heap_bytes() const { return set_aside.capacity(); }
  friend bool operator==(const state&, const state&) = default;
};

}  // namespace carcassonne::peasant_revolts
