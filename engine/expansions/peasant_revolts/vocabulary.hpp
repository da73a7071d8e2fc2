// Peasant Revolts: its moves, events, decisions, points reasons, figures and tile
// symbols, with the values the
// registry gives its slot (slots.hpp), and their names as on the wire and in records.
#pragma once
#include <array>
#include <string_view>

#include "carcassonne/engine/decisions.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/moves.hpp"
#include "id.hpp"

namespace carcassonne::peasant_revolts {

inline constexpr std::array<std::string_view, 1> move_names{"protect"};
inline constexpr auto move_protect = slot_value<move_type>(ranges.moves, 0);

inline constexpr std::array<std::string_view, 1> event_names{"revolt"};
// seat (who drew), kind: a revolt against followers on that kind
inline constexpr auto event_revolt = slot_value<event_type>(ranges.events, 0);

inline constexpr std::array<std::string_view, 1> decision_names{"protect"};
inline constexpr auto decision_protect = slot_value<decision>(ranges.decisions, 0);

inline constexpr std::array<std::string_view, 2> reason_names{"revolt", "protection"};
inline constexpr auto reason_revolt = slot_value<points_reason>(ranges.reasons, 0);
inline constexpr auto reason_protection = slot_value<points_reason>(ranges.reasons, 1);

inline constexpr std::array<std::string_view, 0> figure_names{};

// Its tile symbols, as its tiles' JSON writes them, and the script keys it reads.
inline constexpr std::array<tile_symbol_def, 3> tile_symbols{
    {{"revolt", "city"}, {"revolt", "road"}, {"revolt", "monastery"}}};
inline constexpr auto symbol_revolt_city = slot_value<tile_symbol>(ranges.symbols, 0);
inline constexpr auto symbol_revolt_road = slot_value<tile_symbol>(ranges.symbols, 1);
inline constexpr auto symbol_revolt_monastery = slot_value<tile_symbol>(ranges.symbols, 2);
inline constexpr std::array<std::string_view, 1> script_keys{"revolt_removed"};

static_assert(counts_match(ranges, move_names.size(), event_names.size(), decision_names.size(),
                           reason_names.size(), figure_names.size(), tile_symbols.size()),
              "slot.hpp's counts and these names differ");

}  // namespace carcassonne::peasant_revolts
