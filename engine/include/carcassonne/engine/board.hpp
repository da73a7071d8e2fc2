// The board: placed tiles and the open squares next to them, each open square keeping the side
// kinds its neighbours require, so that a placement is checked in O(1) without scanning.
#pragma once
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
  board();

  const std::vector<placed_tile>& placed() const { return placed_; }
  const std::vector<open_square>& open() const { return open_; }
  // Index into placed() of the tile at p, or -1 (inline: the turn asks for dozens per tile).
  int tile_at(square_pos p) const {
    const int c = find_cell(p);
    return c < 0 ? -1 : cells_[c].placed;
  }
  // Index into open() of the open square at p, or -1.
  int open_at(square_pos p) const {
    const int c = find_cell(p);
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
           cells_.capacity() * sizeof(cell) + table_.capacity() * sizeof(std::uint16_t);
  }

  friend bool operator==(const board&, const board&) = default;

 private:
  struct cell {
    square_pos pos;
    std::int16_t placed = -1;  // index into placed_
    std::int16_t open = -1;    // index into open_
    friend bool operator==(const cell&, const cell&) = default;
  };
  // Fibonacci hashing: the top bits of key * 2^64/phi mix every bit of x and y.
  static std::size_t hash_pos(square_pos p, int bits) {
    const auto ux = static_cast<std::uint64_t>(static_cast<std::uint16_t>(p.x));
    const auto uy = static_cast<std::uint64_t>(static_cast<std::uint16_t>(p.y));
    return static_cast<std::size_t>((((ux << 16) | uy) * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
  }
  int find_cell(square_pos p) const {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = hash_pos(p, table_bits_);; i = (i + 1) & mask) {
      const auto slot = table_[i];
      if (slot == 0) return -1;
      if (cells_[slot - 1].pos == p) return slot - 1;
    }
  }
  int add_cell(square_pos p);
  void grow_table();

  std::vector<placed_tile> placed_;
  std::vector<open_square> open_;
  std::vector<cell> cells_;           // every square that is placed or open
  std::vector<std::uint16_t> table_;  // open addressing: cell index + 1, 0 = empty
  int table_bits_ = 9;                // table_.size() == 1 << table_bits_ (room for ~250 cells)
};

}  // namespace carcassonne
