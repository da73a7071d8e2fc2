// The registry's header: the one list of expansions, in slot order. Each entry is the `slot` of
// a module (<name>/slot.hpp: its vocabulary's value ranges, its state type, its module); from
// the list follow the slot ids (<name>::id), the range table, the states game_state keeps (one
// plain value per expansion, so that the base game holds them without knowing what they are) and
// registry.cpp's modules. Adding an expansion: one include and one entry here.
//
// Tests' own expansions (tests/expansions/<name>) are not in the engine: the list ends with test
// slots (slots.hpp, test_slot), which the test-only library carcassonne_test_expansions fills at
// link time (test_slot_modules below). The list, and so game_state, is the same in every build.
#pragma once
#include <array>
#include <cstddef>
#include <stdexcept>
#include <tuple>

#include "carcassonne/engine/options.hpp"
#include "easter/slot.hpp"
#include "festival/slot.hpp"
#include "gifts/slot.hpp"
#include "hills_and_sheep/slot.hpp"
#include "peasant_revolts/slot.hpp"
#include "slots.hpp"

namespace carcassonne {

// The order of slots is the order of hooks within a step (registry.cpp); test slots come last.
using registered_expansions =
    expansion_list<hills_and_sheep::slot, gifts::slot, peasant_revolts::slot, easter::slot,
                   festival::slot, test_slot<0>>;

inline constexpr int expansion_count = registered_expansions::count;
// The expansions offered to players come first; tests' own expansions take the slots after them.
inline constexpr int player_expansion_count = registered_expansions::player_count();
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

static_assert(expansion_count <= max_expansions);
static_assert(registered_expansions::test_only_last(), "test-only expansions come last");
static_assert(registered_expansions::ranges_apart(), "two expansions share a value of one enum");

// Every expansion's state, by its type: s.ext.get<easter::state>().
struct expansion_states {
  registered_expansions::states all;

  template <class State>
  State& get() {
    return std::get<State>(all);
  }
  template <class State>
  const State& get() const {
    return std::get<State>(all);
  }
  std::size_t heap_bytes() const {
    return std::apply([](const auto&... s) { return (std::size_t{0} + ... + s.heap_bytes()); },
                      all);
  }
  friend bool operator==(const expansion_states&, const expansion_states&) = default;
};

}  // namespace carcassonne
