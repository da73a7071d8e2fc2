// What the registry knows of an expansion before the game exists: the values of the engine's
// vocabulary (move, event, decision, points-reason and figure types, tile symbols) each one owns,
// the type of its state, and its module. Each expansion declares these in its own folder
// (<name>/slot.hpp, a `slot` struct); registry.hpp lists the slots once, and everything by slot
// (ids, the range table, the states, registry.cpp's modules) is derived from that list here.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "carcassonne/engine/options.hpp"

namespace carcassonne {

// An expansion by its slot: its place in registry.hpp's list. Each module names its own as
// <name>::id (<name>/id.hpp); there is no list of them besides the registry's.
enum class expansion : std::uint8_t {};

struct expansion_module;  // expansion.hpp

// Values first .. first+count-1 of one enum.
struct value_range {
  std::uint8_t first = 0;
  std::uint8_t count = 0;
};
struct vocabulary_ranges {
  value_range moves, events, decisions, reasons, figures;
  value_range symbols;  // tile symbols: bits of tile_type::symbols (max_tile_symbols)
};

// The base game's own values (moves.hpp, events.hpp, decisions.hpp). A new expansion takes values
// after the largest in use (records and checksums do not depend on them).
inline constexpr vocabulary_ranges base_ranges{{0, 3}, {0, 9}, {0, 3}, {0, 1}, {0, 1}, {0, 0}};

// The i-th value of a range (a constant expression: an index outside the range does not compile).
template <class Enum>
constexpr Enum slot_value(value_range r, int i) {
  if (i < 0 || i >= r.count) throw std::logic_error("value outside the slot's range");
  return static_cast<Enum>(r.first + i);
}

// The state of an expansion that keeps none.
struct no_state {
  std::size_t heap_bytes() const { return 0; }
  friend bool operator==(const no_state&, const no_state&) = default;
};

// A test slot: a slot kept for a test's expansion (tests/expansions/<name>), which the shipped
// binary does not have. It owns no values and keeps no state, so that game_state is the same in
// every build; its module is not named here but found at link time in test_slot_modules
// (registry.hpp): the test-only library carcassonne_test_expansions puts the test's module there,
// and without it (build/carcassonne) the slot has none and its expansion is unknown. N tells the
// test slots apart (the first is test_slot<0>).
template <int N>
struct test_slot {
  static constexpr vocabulary_ranges ranges{};
  using state = no_state;
  static constexpr bool test_only = true;
  static constexpr const expansion_module* module = nullptr;  // in test_slot_modules
};

namespace detail {
constexpr bool overlap(value_range a, value_range b) {
  return a.count && b.count && a.first < b.first + b.count && b.first < a.first + a.count;
}
constexpr bool overlap(const vocabulary_ranges& a, const vocabulary_ranges& b) {
  return overlap(a.moves, b.moves) || overlap(a.events, b.events) ||
         overlap(a.decisions, b.decisions) || overlap(a.reasons, b.reasons) ||
         overlap(a.figures, b.figures) || overlap(a.symbols, b.symbols);
}
}  // namespace detail

// The expansions in slot order, and what follows from the order. Each Slot has `ranges`
// (vocabulary_ranges), `state` (a plain value with heap_bytes and ==, or no_state), `test_only`
// (a test's expansion, not offered to players) and `module` (a pointer to its expansion_module;
// null for a test slot, whose module is supplied at link time).
template <class... Slots>
struct expansion_list {
  static constexpr int count = sizeof...(Slots);
  static constexpr std::array<vocabulary_ranges, count> ranges{Slots::ranges...};
  static constexpr std::array<bool, count> test_only{Slots::test_only...};
  static constexpr std::array<const expansion_module*, count> modules{Slots::module...};
  using states = std::tuple<typename Slots::state...>;

  template <class Slot>
  static constexpr int index_of() {
    int i = 0, found = -1;
    ((std::is_same_v<Slot, Slots> ? (found = i, ++i) : ++i), ...);
    return found;
  }
  // The expansions offered to players: those before the first test-only one.
  static constexpr int player_count() {
    int n = 0;
    while (n < count && !test_only[n]) ++n;
    return n;
  }
  static constexpr bool test_only_last() {
    for (int i = player_count(); i < count; ++i)
      if (!test_only[i]) return false;
    return true;
  }
  // No two slots (nor a slot and the base) share a value of one enum.
  static constexpr bool ranges_apart() {
    for (int i = 0; i < count; ++i) {
      if (detail::overlap(ranges[i], base_ranges)) return false;
      for (int j = 0; j < i; ++j)
        if (detail::overlap(ranges[i], ranges[j])) return false;
    }
    return true;
  }
};

// At start: aborts when a module names more or fewer values than its ranges hold, or two names
// collide (vocabulary.cpp; the registry calls it).
void check_vocabulary();

}  // namespace carcassonne
