// The state each expansion keeps inside game_state: one plain value per expansion, listed here
// (like the registry) so that the base game holds them without knowing what they are.
#pragma once
#include <cstddef>

#include "easter/state.hpp"
#include "hills_and_sheep/state.hpp"

namespace carcassonne {

struct expansion_states {
  hills_and_sheep::state hills_and_sheep;
  easter::state easter;

  std::size_t heap_bytes() const { return hills_and_sheep.heap_bytes() + easter.heap_bytes(); }
  friend bool operator==(const expansion_states&, const expansion_states&) = default;
};

}  // namespace carcassonne
