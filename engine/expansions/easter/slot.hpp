// Easter: how many values of each of the engine's enums it owns (its vocabulary.hpp names
// them). The registry numbers them after those of the expansions before it (slots.hpp).
#pragma once
#include "slots.hpp"

namespace carcassonne::easter {

struct slot {
  // Moves, events, decisions, points reasons, figures, tile symbols.
  static constexpr vocabulary_counts counts{1, 6, 1, 1, 0, 2};
  static constexpr bool test_only = false;
};

}  // namespace carcassonne::easter
