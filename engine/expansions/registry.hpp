// The state each expansion keeps inside game_state: one plain value per expansion, listed here
// (like the registry) so that the base game holds them without knowing what they are.
#pragma once
#include <cstddef>

#include "easter/state.hpp"
#include "gifts/state.hpp"
#include "hills_and_sheep/state.hpp"
#include "peasant_revolts/state.hpp"

namespace carcassonne {

struct expansion_states {
  hills_and_sheep::state hills_and_sheep;
  peasant_revolts::state peasant_revolts;
  gifts::state gifts;
  easter::state easter;

  std::size_t heap_bytes() const {
    return hills_and_sheep.heap_bytes() + peasant_revolts.heap_bytes() + gifts.heap_bytes() +
           easter.heap_bytes();
  }
  friend bool operator==(const expansion_states&, const expansion_states&) = default;
};

}  // namespace carcassonne
