// Internal: bit counts of small masks. The build targets plain x86-64 (no POPCNT), where
// std::popcount is a library call; these few masks are counted inline instead.
#pragma once
#include <cstdint>

namespace carcassonne::detail {

// Set bits of an 8-bit mask (edges, half-edges, seats, rotations).
constexpr int count_bits8(unsigned v) {
  v &= 0xFFu;
  v = v - ((v >> 1) & 0x55u);
  v = (v & 0x33u) + ((v >> 2) & 0x33u);
  return static_cast<int>((v + (v >> 4)) & 0x0Fu);
}
static_assert(count_bits8(0) == 0 && count_bits8(0xFF) == 8 && count_bits8(0b1011'0100) == 4);

}  // namespace carcassonne::detail
