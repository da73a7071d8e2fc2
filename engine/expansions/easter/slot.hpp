// Easter: what the registry needs to give it a slot (registry.hpp lists this struct).
#pragma once
#include "slots.hpp"
#include "state.hpp"

namespace carcassonne::easter {

extern const expansion_module module;

struct slot {
  // The values it owns. They are those the values had when the base listed them all.
  // clang-format off
  //                                        moves   events   decisions reasons figures symbols
  static constexpr vocabulary_ranges ranges{{8, 1}, {17, 6}, {6, 1}, {6, 1}, {0, 0}, {3, 2}};
  // clang-format on
  using state = easter::state;
  static constexpr bool test_only = false;
  static constexpr const expansion_module* module = &easter::module;
};

}  // namespace carcassonne::easter

// The names of those values, which every user of the registry sees.
#include "vocabulary.hpp"  // IWYU pragma: export
