// Vocabulary of the engine: seats, squares, edges, half-edges, feature kinds. Plain values only.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace carcassonne {

using seat_t = std::uint8_t;
inline constexpr int max_seats = 6;
inline constexpr int min_seats = 2;
inline constexpr int followers_per_seat = 7;
inline constexpr seat_t no_seat = 0xFF;

// A square of the board: x grows east, y grows south (game-record.md).
struct square_pos {
  std::int16_t x = 0;
  std::int16_t y = 0;
  friend bool operator==(square_pos, square_pos) = default;
};

// Edges clockwise from north; rotating a tile by 90 degrees maps N->E->S->W->N.
enum class edge : std::uint8_t { N = 0, E = 1, S = 2, W = 3 };
inline constexpr std::array<std::string_view, 4> edge_names{"N", "E", "S", "W"};
inline constexpr int opposite_edge(int e) {
  return (e + 2) & 3;
}
inline constexpr std::array<int, 4> edge_dx{0, 1, 0, -1};
inline constexpr std::array<int, 4> edge_dy{-1, 0, 1, 0};

// Half-edges clockwise from the north-west corner: NL NR EL ER SL SR WL WR (tiles.json).
// Half h lies on edge h/2; across a border half 2e+k meets the neighbour's half 2e'+(1-k).
inline constexpr std::array<std::string_view, 8> half_names{"NL", "NR", "EL", "ER",
                                                            "SL", "SR", "WL", "WR"};
inline constexpr int facing_half(int h) {
  return opposite_edge(h / 2) * 2 + (1 - (h & 1));
}

// What a tile side shows. Values are 2-bit codes used in packed side masks; 0 means "no
// constraint" in an open square's requirement mask.
enum class side_kind : std::uint8_t { city = 1, road = 2, field = 3 };

enum class feature_kind : std::uint8_t { road = 0, city = 1, monastery = 2, field = 3 };
inline constexpr std::array<std::string_view, 4> feature_kind_names{"road", "city", "monastery",
                                                                    "field"};

// Rotation in quarter turns clockwise (0..3); records use degrees.
inline constexpr int rotate_edge(int local_edge, int quarter_turns) {
  return (local_edge + quarter_turns) & 3;
}
inline constexpr int unrotate_edge(int abs_edge, int quarter_turns) {
  return (abs_edge - quarter_turns) & 3;
}
inline constexpr int unrotate_half(int abs_half, int quarter_turns) {
  return (abs_half - 2 * quarter_turns) & 7;
}

}  // namespace carcassonne
