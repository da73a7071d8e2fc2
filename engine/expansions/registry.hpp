// The registry's header: the expansions by slot and their vocabulary (slots.hpp, each module's
// vocabulary.hpp), and the state each keeps inside game_state (one plain value per expansion), so
// that the base game holds them without knowing what they are. registry.cpp lists their modules
// in the same order and checks each module's id and ranges at start.
#pragma once
#include <cstddef>

#include "carcassonne/engine/options.hpp"
#include "easter/state.hpp"
#include "easter/vocabulary.hpp"
#include "festival/vocabulary.hpp"
#include "gifts/state.hpp"
#include "gifts/vocabulary.hpp"
#include "hills_and_sheep/state.hpp"
#include "hills_and_sheep/vocabulary.hpp"
#include "peasant_revolts/state.hpp"
#include "peasant_revolts/vocabulary.hpp"
#include "slots.hpp"

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
