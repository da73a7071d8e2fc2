// The board: placed tiles and the open squares next to them, each open square keeping the side
// kinds its neighbours require, so that a placement is checked in O(1) without scanning.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "carcassonne/engine/tiles.hpp"
#include "carcassonne/engine/types.hpp"

namespace carcassonne {

struct placed_tile {
  square_pos pos;
  tile_type_id type = 0;
  std::uint8_t rotation = 0;        // quarter turns clockwise
  std::uint8_t surrounding = 0;     // how many of the 8 surrounding squares hold tiles
  std::uint16_t first_segment = 0;  // global index of the tile's segment 0 in the feature graph
  friend bool operator==(const placed_tile&, const placed_tile&) = default;
};

struct open_square {
  square_pos pos;
  std::uint8_t requirement = 0;  // 2 bits per absolute edge: required side_kind, 0 = free
  std::uint8_t mask = 0;         // 0b11 on every edge that has a requirement
  friend bool operator==(const open_square&, const open_square&) = default;
};

class board {
 public:
  const std::vector<placed_tile>& placed() const { return placed_; }
  const std::vector<open_square>& open() const { return open_; }
  // Index into placed() of the tile at p, or -1 (inline: the turn asks for dozens per tile).
  int tile_at(square_pos p) const {
    const int c = cell_index(p);
    return c < 0 ? -1 : cells_[c].placed;
  }
  // The tiles on the 8 squares around the placed tile at p, clockwise from the north-west as in
  // detail::surrounding (index into placed(), or -1): the grid holds them all since p was
  // placed, so they are read without a bounds test.
  std::array<int, 8> tiles_around(square_pos p) const {
    const int c = cell_index(p);
    const int w = width_;
    return {cells_[c - w - 1].placed, cells_[c - w].placed,     cells_[c - w + 1].placed,
            cells_[c + 1].placed,     cells_[c + w + 1].placed, cells_[c + w].placed,
            cells_[c + w - 1].placed, cells_[c - 1].placed};
  }
  // Index into open() of the open square at p, or -1.
  int open_at(square_pos p) const {
    const int c = cell_index(p);
    return c < 0 ? -1 : cells_[c].open;
  }

  // Base rule 4.1: every side shared with a placed tile matches.
  static bool fits(const open_square& sq, const tile_type& t, int quarter_turns) {
    return (t.packed_sides[quarter_turns] & sq.mask) == sq.requirement;
  }
  bool placeable(const tile_type& t) const;

  // Places a tile on an open square (the caller has checked fits) and returns its index.
  int place(square_pos p, tile_type_id type, int quarter_turns, std::uint16_t first_segment);

  // Heap memory held (for the state-size report).
  std::size_t heap_bytes() const {
    return placed_.capacity() * sizeof(placed_tile) + open_.capacity() * sizeof(open_square) +
           cells_.capacity() * sizeof(cell);
  }

  friend bool operator==(const board&, const board&) = default;

 private:
  struct cell {
    std::int16_t placed = -1;  // index into placed_
    std::int16_t open = -1;    // index into open_
    friend bool operator==(const cell&, const cell&) = default;
  };
  // A flat grid over the squares in use plus a margin: a lookup is a bounds test and an index
  // (a hash probe per lookup used to cost a tenth of a playout).
  int cell_index(square_pos p) const {
    const auto cx = static_cast<unsigned>(p.x - x0_);
    const auto cy = static_cast<unsigned>(p.y - y0_);
    if (cx >= width_ || cy >= height_) return -1;
    return static_cast<int>(cy * width_ + cx);
  }
  // Grows the grid (keeping every cell) so that p and its 8 surrounding squares lie inside.
  void cover(square_pos p);

  std::vector<placed_tile> placed_;
  std::vector<open_square> open_;
  std::vector<cell> cells_;  // row-major, width_ x height_, from square (x0_, y0_)
  std::int16_t x0_ = 0;
  std::int16_t y0_ = 0;
  std::uint16_t width_ = 0;
  std::uint16_t height_ = 0;
};

}  // namespace carcassonne
