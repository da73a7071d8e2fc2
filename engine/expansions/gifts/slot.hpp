// Gifts: what the registry needs to give it a slot (registry.hpp lists this struct).
#pragma once
#include "slots.hpp"
#include "state.hpp"

namespace carcassonne::gifts {

extern const expansion_module module;

struct slot {
  // The values it owns. They are those the values had when the base listed them all.
  // clang-format off
  //                                        moves   events   decisions reasons figures symbols
  static constexpr vocabulary_ranges ranges{{4, 2}, {14, 3}, {5, 1}, {4, 2}, {0, 0}, {0, 0}};
  // clang-format on
  using state = gifts::state;
  static constexpr bool test_only = false;
  static constexpr const expansion_module* module = &gifts::module;
};

}  // namespace carcassonne::gifts

// The names of those values, which every user of the registry sees.
#include "vocabulary.hpp"  // IWYU pragma: export
