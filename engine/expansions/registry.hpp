// The registry's header: the expansions in slot order, as the build lists them
// (engine/CMakeLists.txt, carcassonne_expansions: one list, which also generates protocol's).
// From the list follow the slot ids (<name>::id) and the values each slot owns (slot_ranges).
// This header knows only each expansion's counts (<name>/slot.hpp), never its state or code, so
// that a change to one expansion rebuilds only what uses that expansion.
//
// Tests' own expansions (tests/expansions/<name>) are not in the engine: the list ends with test
// slots (slots.hpp, test_slot), which the test-only library carcassonne_test_expansions fills at
// link time (test_slot_modules below). The list, and so game_state, is the same in every build.
#pragma once
#include <array>
#include <cstddef>
#include <stdexcept>

#include "carcassonne/engine/options.hpp"
#include "expansion_list.hpp"  // generated: registered_expansions
#include "slots.hpp"

namespace carcassonne {

struct expansion_module;  // expansion.hpp

static_assert(expansion_count == registered_expansions::count &&
              player_expansion_count == registered_expansions::player_count());
inline constexpr auto slot_ranges = registered_expansions::ranges;

template <class Slot>
inline constexpr expansion slot_id = [] {
  constexpr int i = registered_expansions::index_of<Slot>();
  static_assert(i >= 0, "not in the registry's list");
  return static_cast<expansion>(i);
}();

// The test slots' modules, test slot by test slot: defined by carcassonne_test_expansions
// (tests/expansions/test_slots.cpp) in the binaries that link it, otherwise by
// engine/expansions/test_slots.cpp (none).
inline constexpr int test_slot_count = expansion_count - player_expansion_count;
using test_slot_table = std::array<const expansion_module*, test_slot_count>;
extern const test_slot_table test_slot_modules;
// Where a test slot's module goes in test_slot_modules (a constant expression: a slot that is not
// a test slot does not compile).
constexpr int test_slot_index(expansion e) {
  const int i = static_cast<int>(e) - player_expansion_count;
  if (i < 0 || i >= test_slot_count) throw std::logic_error("not a test slot");
  return i;
}

// The ceilings, checked here rather than found broken at start.
static_assert(expansion_count <= max_expansions, "expansion_set has a bit per expansion");
static_assert(registered_expansions::test_only_last(), "test-only expansions come last");
static_assert(registered_expansions::valid(), "more values of an enum than its type holds");

}  // namespace carcassonne
