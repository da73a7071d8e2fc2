// Long Roads: what the registry needs to give it a slot (registry.hpp lists this struct).
#pragma once
#include "slots.hpp"

namespace carcassonne::long_roads {

extern const expansion_module module;

struct slot {
  static constexpr vocabulary_ranges ranges{};  // no values of its own
  using state = no_state;
  static constexpr bool test_only = true;  // not offered to players
  static constexpr const expansion_module* module = &long_roads::module;
};

}  // namespace carcassonne::long_roads
