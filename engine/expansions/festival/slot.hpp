// Festival: what the registry needs to give it a slot (registry.hpp lists this struct).
#pragma once
#include "slots.hpp"

namespace carcassonne::festival {

extern const expansion_module module;

struct slot {
  // The values it owns. They are those the values had when the base listed them all.
  // clang-format off
  //                                        moves   events   decisions reasons figures symbols
  static constexpr vocabulary_ranges ranges{{7, 1}, { 0, 0}, {0, 0}, {0, 0}, {0, 0}, {2, 1}};
  // clang-format on
  using state = no_state;
  static constexpr bool test_only = false;
  static constexpr const expansion_module* module = &festival::module;
};

}  // namespace carcassonne::festival

// The names of those values, which every user of the registry sees.
#include "vocabulary.hpp"  // IWYU pragma: export
