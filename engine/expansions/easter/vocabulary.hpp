// Easter: its moves, events, decisions, points reasons, figures and tile
// symbols, with the values the
// registry gives its slot (slots.hpp), and their names as on the wire and in records.
#pragma once
#include <array>
#include <string_view>

#include "carcassonne/engine/decisions.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/moves.hpp"
#include "id.hpp"

namespace carcassonne::easter {

inline constexpr std::array<std::string_view, 1> move_names{"bunny"};
inline constexpr auto move_bunny = slot_value<move_type>(ranges.moves, 0);

inline constexpr std::array<std::string_view, 6> event_names{
    "bunny_placed", "nest_scored", "eggs_collected", "die_rolled", "bunny_moved", "bunny_stuck"};
// seat (who placed the tile), at: a neutral figure was put on a tile
inline constexpr auto event_bunny_placed = slot_value<event_type>(ranges.events, 0);
// seat (who completed it), at: a nest (3x3 area) is scored for eggs
inline constexpr auto event_nest_scored = slot_value<event_type>(ranges.events, 1);
// seat, at (where), value = eggs received
inline constexpr auto event_eggs_collected = slot_value<event_type>(ranges.events, 2);
// seat, value = the roll
inline constexpr auto event_die_rolled = slot_value<event_type>(ranges.events, 3);
// seat (who moved it), at: one hop
inline constexpr auto event_bunny_moved = slot_value<event_type>(ranges.events, 4);
// seat: its go is skipped, the bunny cannot move
inline constexpr auto event_bunny_stuck = slot_value<event_type>(ranges.events, 5);

inline constexpr std::array<std::string_view, 1> decision_names{"bunny"};
inline constexpr auto decision_bunny = slot_value<decision>(ranges.decisions, 0);

inline constexpr std::array<std::string_view, 1> reason_names{"eggs"};
inline constexpr auto reason_eggs = slot_value<points_reason>(ranges.reasons, 0);

inline constexpr std::array<std::string_view, 0> figure_names{};

// Its tile symbols, as its tiles' JSON writes them, and the script keys it reads.
inline constexpr std::array<tile_symbol_def, 2> tile_symbols{
    {{"easter_nest", ""}, {"easter_bunny", ""}}};
inline constexpr auto symbol_nest = slot_value<tile_symbol>(ranges.symbols, 0);
inline constexpr auto symbol_bunny = slot_value<tile_symbol>(ranges.symbols, 1);
inline constexpr std::array<std::string_view, 1> script_keys{"dice"};

static_assert(counts_match(ranges, move_names.size(), event_names.size(), decision_names.size(),
                           reason_names.size(), figure_names.size(), tile_symbols.size()),
              "slot.hpp's counts and these names differ");

}  // namespace carcassonne::easter
