// Peasant Revolts: its moves, events, decisions, points reasons, figures and tile
// symbols, with the values the
// registry gives its slot (slots.hpp), and their names as on the wire and in records.
#pragma once
#include <array>
#include <string_view>

#include "carcassonne/engine/decisions.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/moves.hpp"
#include "slot.hpp"

namespace carcassonne::peasant_revolts {

inline constexpr std::array<std::string_view, 1> move_names{"protect"};
inline constexpr auto move_protect = slot_value<move_type>(slot::ranges.moves, 0);

inline constexpr std::array<std::string_view, 1> event_names{"revolt"};
// seat (who drew), kind: a revolt against followers on that kind
inline constexpr auto event_revolt = slot_value<event_type>(slot::ranges.events, 0);

inline constexpr std::array<std::string_view, 1> decision_names{"protect"};
inline constexpr auto decision_protect = slot_value<decision>(slot::ranges.decisions, 0);

inline constexpr std::array<std::string_view, 2> reason_names{"revolt", "protection"};
inline constexpr auto reason_revolt = slot_value<points_reason>(slot::ranges.reasons, 0);
inline constexpr auto reason_protection = slot_value<points_reason>(slot::ranges.reasons, 1);

inline constexpr std::array<std::string_view, 0> figure_names{};

// Its tile symbols, as its tiles' JSON writes them, and the script keys it reads.
inline constexpr std::array<tile_symbol_def, 3> tile_symbols{
    {{"revolt", "city"}, {"revolt", "road"}, {"revolt", "monastery"}}};
inline constexpr auto symbol_revolt_city = slot_value<tile_symbol>(slot::ranges.symbols, 0);
inline constexpr auto symbol_revolt_road = slot_value<tile_symbol>(slot::ranges.symbols, 1);
inline constexpr auto symbol_revolt_monastery = slot_value<tile_symbol>(slot::ranges.symbols, 2);
inline constexpr std::array<std::string_view, 1> script_keys{"revolt_removed"};

}  // namespace carcassonne::peasant_revolts
