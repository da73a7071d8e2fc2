// Gifts: its moves, events, decisions, points reasons, figures and tile
// symbols, with the values the
// registry gives its slot (slots.hpp), and their names as on the wire and in records.
#pragma once
#include <array>
#include <string_view>

#include "carcassonne/engine/decisions.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/moves.hpp"
#include "id.hpp"

namespace carcassonne::gifts {

inline constexpr std::array<std::string_view, 2> move_names{"open_gift", "choose_tile"};
inline constexpr auto move_open_gift = slot_value<move_type>(ranges.moves, 0);
inline constexpr auto move_choose_tile = slot_value<move_type>(ranges.moves, 1);

inline constexpr std::array<std::string_view, 3> event_names{"gift_received", "gift_opened",
                                                             "figure_moved"};
// seat (the card itself is in that seat's view only)
inline constexpr auto event_gift_received = slot_value<event_type>(ranges.events, 0);
// seat, value = card
inline constexpr auto event_gift_opened = slot_value<event_type>(ranges.events, 1);
// seat, figure, at, feature (where it went), value = the segment it left
inline constexpr auto event_figure_moved = slot_value<event_type>(ranges.events, 2);

inline constexpr std::array<std::string_view, 1> decision_names{"choose_tile"};
inline constexpr auto decision_choose_tile = slot_value<decision>(ranges.decisions, 0);

inline constexpr std::array<std::string_view, 2> reason_names{"gifts", "cash_out"};
inline constexpr auto reason_gifts = slot_value<points_reason>(ranges.reasons, 0);
inline constexpr auto reason_cash_out = slot_value<points_reason>(ranges.reasons, 1);

inline constexpr std::array<std::string_view, 0> figure_names{};

// Its tile symbols, as its tiles' JSON writes them, and the script keys it reads.
inline constexpr std::array<tile_symbol_def, 0> tile_symbols{{}};
inline constexpr std::array<std::string_view, 1> script_keys{"gifts"};

static_assert(counts_match(ranges, move_names.size(), event_names.size(), decision_names.size(),
                           reason_names.size(), figure_names.size(), tile_symbols.size()),
              "slot.hpp's counts and these names differ");

}  // namespace carcassonne::gifts
