// The expansions by slot, and the values of the engine's vocabulary (move, event, decision,
// points-reason and figure types) that each slot owns. The base game's values come first; each
// module names its own as constants in its folder (<name>/vocabulary.hpp) through slot_value, so
// this table is the one place that gives a module its numbers. The registry checks at start that
// no two ranges overlap and that each module names as many values as its ranges hold.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>

#include "carcassonne/engine/options.hpp"

namespace carcassonne {

enum class expansion : std::uint8_t {
  hills_and_sheep,
  gifts,
  peasant_revolts,
  easter,
  festival,
  long_roads,  // a test's (tests/expansions/long_roads)
};
inline constexpr int expansion_count = 6;
// The expansions offered to players come first; tests' own expansions take the slots after them.
inline constexpr int player_expansion_count = 5;
static_assert(expansion_count <= max_expansions);

// Values first .. first+count-1 of one enum.
struct value_range {
  std::uint8_t first = 0;
  std::uint8_t count = 0;
};
struct vocabulary_ranges {
  value_range moves, events, decisions, reasons, figures;
  value_range symbols;  // tile symbols: bits of tile_type::symbols (max_tile_symbols)
};

// The base game's own values (moves.hpp, events.hpp, decisions.hpp).
inline constexpr vocabulary_ranges base_ranges{{0, 3}, {0, 9}, {0, 3}, {0, 1}, {0, 1}, {0, 0}};

// By slot. The numbers are those the values had when the base listed them all (records and
// checksums do not depend on them, but keeping them costs nothing); a new expansion takes values
// after the largest in use.
// clang-format off
inline constexpr std::array<vocabulary_ranges, expansion_count> slot_ranges{{
    //                    moves   events   decisions reasons figures symbols
    /* hills_and_sheep */ {{3, 1}, { 9, 4}, {3, 1}, {1, 1}, {1, 1}, {0, 2}},
    /* gifts           */ {{4, 2}, {14, 3}, {5, 1}, {4, 2}, {0, 0}, {0, 0}},
    /* peasant_revolts */ {{6, 1}, {13, 1}, {4, 1}, {2, 2}, {0, 0}, {5, 3}},
    /* easter          */ {{8, 1}, {17, 6}, {6, 1}, {6, 1}, {0, 0}, {3, 2}},
    /* festival        */ {{7, 1}, { 0, 0}, {0, 0}, {0, 0}, {0, 0}, {2, 1}},
    /* long_roads      */ {},
}};
// clang-format on

// The i-th value a slot owns in one enum (a constant expression: an index outside the slot's
// range does not compile).
template <class Enum>
constexpr Enum slot_value(expansion e, value_range vocabulary_ranges::*which, int i) {
  const value_range r = slot_ranges[static_cast<int>(e)].*which;
  if (i < 0 || i >= r.count) throw std::logic_error("value outside the slot's range");
  return static_cast<Enum>(r.first + i);
}

// At start: aborts when two ranges overlap or a module names more or fewer values than its
// ranges hold (vocabulary.cpp; the registry calls it).
void check_vocabulary();

}  // namespace carcassonne
