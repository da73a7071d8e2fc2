// Peasant Revolts: what the registry needs to give it a slot (registry.hpp lists this struct).
#pragma once
#include "slots.hpp"
#include "state.hpp"

namespace carcassonne::peasant_revolts {

extern const expansion_module module;

struct slot {
  // The values it owns. They are those the values had when the base listed them all.
  // clang-format off
  //                                        moves   events   decisions reasons figures symbols
  static constexpr vocabulary_ranges ranges{{6, 1}, {13, 1}, {4, 1}, {2, 2}, {0, 0}, {5, 3}};
  // clang-format on
  using state = peasant_revolts::state;
  static constexpr bool test_only = false;
  static constexpr const expansion_module* module = &peasant_revolts::module;
};

}  // namespace carcassonne::peasant_revolts

// The names of those values, which every user of the registry sees.
#include "vocabulary.hpp"  // IWYU pragma: export
