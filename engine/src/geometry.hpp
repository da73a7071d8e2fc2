// Internal: square arithmetic shared by the board, the turn and the invariant checks.
#pragma once
#include <array>

#include "carcassonne/engine/types.hpp"

namespace carcassonne::detail {

// The square across edge e (N, E, S, W) of p.
inline square_pos neighbour(square_pos p, int e) {
  return {static_cast<std::int16_t>(p.x + edge_dx[e]), static_cast<std::int16_t>(p.y + edge_dy[e])};
}

// The 8 surrounding squares of p, clockwise from the north-west.
inline std::array<square_pos, 8> surrounding(square_pos p) {
  constexpr std::array<int, 8> dx{-1, 0, 1, 1, 1, 0, -1, -1};
  constexpr std::array<int, 8> dy{-1, -1, -1, 0, 1, 1, 1, 0};
  std::array<square_pos, 8> out{};
  for (int k = 0; k < 8; ++k)
    out[k] = {static_cast<std::int16_t>(p.x + dx[k]), static_cast<std::int16_t>(p.y + dy[k])};
  return out;
}

}  // namespace carcassonne::detail
