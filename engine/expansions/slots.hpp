// What the registry knows of an expansion before the game exists: how many values of the engine's
// vocabulary (move, event, decision, points-reason and figure types, tile symbols) each one owns.
// Each expansion declares these in its own folder (<name>/slot.hpp, a `slot` struct); the build
// lists the slots once (engine/CMakeLists.txt, expansion_list.hpp), and the ids and the values
// each slot owns are derived from that list here.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "carcassonne/engine/options.hpp"

namespace carcassonne {

// An expansion by its slot: its place in the build's list. Each module names its own as
// <name>::id (<name>/id.hpp); there is no list of them besides the build's.
enum class expansion : std::uint8_t {};

// Values first .. first+count-1 of one enum.
struct value_range {
  std::uint8_t first = 0;
  std::uint8_t count = 0;
};
struct vocabulary_ranges {
  value_range moves, events, decisions, reasons, figures;
  value_range symbols;  // tile symbols: bits of tile_type::symbols (max_tile_symbols)
};
// How many values of each enum a slot owns (<name>/slot.hpp); the list numbers them.
struct vocabulary_counts {
  int moves = 0, events = 0, decisions = 0, reasons = 0, figures = 0, symbols = 0;
};

// The base game's own values (moves.hpp, events.hpp, decisions.hpp); the expansions' follow them.
inline constexpr vocabulary_ranges base_ranges{{0, 3}, {0, 9}, {0, 3}, {0, 1}, {0, 1}, {0, 0}};
// Ceilings of the values' types: move types are bits of expansion_module::extra_move_types, tile
// symbols bits of tile_type::symbols, the others one byte each.
inline constexpr int max_move_types = 32;
inline constexpr int max_symbols = 32;
inline constexpr int max_values = 256;

// The i-th value of a range (a constant expression: an index outside the range does not compile).
template <class Enum>
constexpr Enum slot_value(value_range r, int i) {
  if (i < 0 || i >= r.count) throw std::logic_error("value outside the slot's range");
  return static_cast<Enum>(r.first + i);
}

// Whether a module's names (their counts) fill its ranges exactly (each vocabulary.hpp checks).
constexpr bool counts_match(const vocabulary_ranges& r, std::size_t moves, std::size_t events,
                            std::size_t decisions, std::size_t reasons, std::size_t figures,
                            std::size_t symbols) {
  return r.moves.count == moves && r.events.count == events && r.decisions.count == decisions &&
         r.reasons.count == reasons && r.figures.count == figures && r.symbols.count == symbols;
}

// The state of an expansion that keeps none.
struct no_state {
  std::size_t heap_bytes() const { return 0; }
  friend bool operator==(const no_state&, const no_state&) = default;
};

// A test slot: a slot kept for a test's expansion (tests/expansions/<name>), which the shipped
// binary does not have. It owns no values and keeps no state, so that game_state is the same in
// every build; its module is found at link time in test_slot_modules (registry.hpp): the
// test-only library carcassonne_test_expansions puts the test's module there, and without it
// (build/carcassonne) the slot has none and its expansion is unknown. N tells the test slots
// apart (the first is test_slot<0>).
template <int N>
struct test_slot {
  static constexpr vocabulary_counts counts{};
  static constexpr bool test_only = true;
};

// The expansions in slot order, and what follows from the order. Each Slot has `counts`
// (vocabulary_counts) and `test_only` (a test's expansion, not offered to players). Values are
// numbered in list order after the base game's: no two slots share one, and a list that overflows
// a type does not compile (valid()).
template <class... Slots>
struct expansion_list {
  static constexpr int count = sizeof...(Slots);
  static constexpr std::array<vocabulary_counts, count> counts{Slots::counts...};
  static constexpr std::array<bool, count> test_only{Slots::test_only...};

  static constexpr std::array<vocabulary_ranges, count> ranges = [] {
    std::array<vocabulary_ranges, count> out{};
    auto next = base_ranges;  // each range's `first` after the last slot's
    const auto take = [](value_range& range, int n) {
      const value_range r{range.first, static_cast<std::uint8_t>(n)};
      range.first = static_cast<std::uint8_t>(range.first + n);
      return r;
    };
    next.moves.first = base_ranges.moves.count;
    next.events.first = base_ranges.events.count;
    next.decisions.first = base_ranges.decisions.count;
    next.reasons.first = base_ranges.reasons.count;
    next.figures.first = base_ranges.figures.count;
    next.symbols.first = base_ranges.symbols.count;
    for (int i = 0; i < count; ++i) {
      const auto& c = counts[i];
      out[i] = {take(next.moves, c.moves),         take(next.events, c.events),
                take(next.decisions, c.decisions), take(next.reasons, c.reasons),
                take(next.figures, c.figures),     take(next.symbols, c.symbols)};
    }
    return out;
  }();

  // Every value fits its type: the sums, computed wide, stay under each ceiling.
  static constexpr bool valid() {
    int moves = base_ranges.moves.count, events = base_ranges.events.count,
        decisions = base_ranges.decisions.count, reasons = base_ranges.reasons.count,
        figures = base_ranges.figures.count, symbols = base_ranges.symbols.count;
    for (const auto& c : counts) {
      moves += c.moves, events += c.events, decisions += c.decisions, reasons += c.reasons;
      figures += c.figures, symbols += c.symbols;
    }
    return moves <= max_move_types && symbols <= max_symbols && events <= max_values &&
           decisions <= max_values && reasons <= max_values && figures <= max_values;
  }

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
};

// At start: aborts when a module names more or fewer values than its ranges hold, or two names
// collide (vocabulary.cpp; the registry calls it).
void check_vocabulary();

}  // namespace carcassonne
