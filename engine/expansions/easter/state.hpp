// Easter in Carcassonne: the expansion's own state (eggs, the bunny, the bunny phase, the nests
// waiting to be scored this turn, scripted dice).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "carcassonne/engine/moves.hpp"
#include "carcassonne/engine/types.hpp"

namespace carcassonne::easter {

// Squares the bunny can visit in one phase: its start and up to 3 hops per seat.
inline constexpr int max_visited = 1 + max_seats * max_bunny_hops;
// Nests one tile can surround: itself and its 8 neighbours.
inline constexpr int max_nests_per_turn = 9;

struct state {
  std::array<std::int32_t, max_seats> eggs{};  // public counters (E-9: never lost)

  // The neutral bunny figure: off the board until a tile puts it on one (§3).
  bool bunny_on_board = false;
  square_pos bunny;

  // The bunny phase (§5). phase_due: a bunny tile was placed this turn and its phase has not
  // started yet. During the phase `go` is the seat whose go it is, `goes_left` counts the goes
  // not finished yet (that one included), `roll` is that go's number of hops, and `visited`
  // holds every square the bunny stood on in this phase, its start first (E-3).
  bool phase_due = false;
  bool in_phase = false;
  seat_t go = 0;
  std::uint8_t goes_left = 0;
  std::uint8_t roll = 0;
  std::uint8_t visited_count = 0;
  std::array<square_pos, max_visited> visited{};

  // Nests (board indexes) surrounded by this turn's tile, scored at step 12 (or 10a).
  std::uint8_t nest_count = 0;
  std::array<std::int16_t, max_nests_per_turn> nests{};

  // Scripted dice (setup.script.dice), hidden like the generator.
  std::vector<std::uint8_t> script;
  std::uint16_t script_next = 0;
  bool scripted = false;
  // Only in precheck's trial copy of a state: the trial ran past the end of script.dice.
  bool trial = false;
  bool trial_short = false;

  std::size_t heap_bytes() const { return script.capacity(); }
  friend bool operator==(const state&, const state&) = default;
};

}  // namespace carcassonne::easter
