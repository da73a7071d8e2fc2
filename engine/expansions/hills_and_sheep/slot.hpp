// Hills & Sheep: what the registry needs to give it a slot (registry.hpp lists this struct).
#pragma once
#include "slots.hpp"
#include "state.hpp"

namespace carcassonne::hills_and_sheep {

extern const expansion_module module;

struct slot {
  // The values it owns. They are those the values had when the base listed them all.
  // clang-format off
  //                                        moves   events   decisions reasons figures symbols
  static constexpr vocabulary_ranges ranges{{3, 1}, { 9, 4}, {3, 1}, {1, 1}, {1, 1}, {0, 2}};
  // clang-format on
  using state = hills_and_sheep::state;
  static constexpr bool test_only = false;
  static constexpr const expansion_module* module = &hills_and_sheep::module;
};

}  // namespace carcassonne::hills_and_sheep

// The names of those values, which every user of the registry sees.
#include "vocabulary.hpp"  // IWYU pragma: export
