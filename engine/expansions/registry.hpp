// The registry's header: the expansions by slot, and the state each keeps inside game_state (one
// plain value per expansion), so that the base game holds them without knowing what they are.
// registry.cpp lists their modules in the same order and checks each module's id at start.
#pragma once
#include <cstddef>

#include "carcassonne/engine/options.hpp"
#include "easter/state.hpp"
#include "gifts/state.hpp"
#include "hills_and_sheep/state.hpp"
#include "peasant_revolts/state.hpp"

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
