// Hills & Sheep: its moves, events, decisions, points reasons, figures and tile
// symbols, with the values the
// registry gives its slot (slots.hpp), and their names as on the wire and in records.
#pragma once
#include <array>
#include <string_view>

#include "carcassonne/engine/decisions.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/moves.hpp"
#include "id.hpp"

namespace carcassonne::hills_and_sheep {

inline constexpr std::array<std::string_view, 1> move_names{"flock"};
inline constexpr auto move_flock = slot_value<move_type>(ranges.moves, 0);

inline constexpr std::array<std::string_view, 4> event_names{"tile_hidden", "token_drawn",
                                                             "flock_scored", "flock_lost"};
// seat: a tile left the supply face down, unseen (no tile id, ever)
inline constexpr auto event_tile_hidden = slot_value<event_type>(ranges.events, 0);
// seat, value = token drawn from the bag, points = the bag before the draw (bag_before)
inline constexpr auto event_token_drawn = slot_value<event_type>(ranges.events, 1);
// at, feature (the field), points, owners (seats scoring)
inline constexpr auto event_flock_scored = slot_value<event_type>(ranges.events, 2);
// at, feature (the field), owners (seats whose figures return)
inline constexpr auto event_flock_lost = slot_value<event_type>(ranges.events, 3);

inline constexpr std::array<std::string_view, 1> decision_names{"flock"};
inline constexpr auto decision_flock = slot_value<decision>(ranges.decisions, 0);

inline constexpr std::array<std::string_view, 1> reason_names{"flock"};
inline constexpr auto reason_flock = slot_value<points_reason>(ranges.reasons, 0);

inline constexpr std::array<std::string_view, 1> figure_names{"shepherd"};
inline constexpr auto figure_shepherd = slot_value<figure_type>(ranges.figures, 0);

// Its tile symbols, as its tiles' JSON writes them, and the script keys it reads.
inline constexpr std::array<tile_symbol_def, 2> tile_symbols{{{"hill", ""}, {"vineyard", ""}}};
inline constexpr auto symbol_hill = slot_value<tile_symbol>(ranges.symbols, 0);
inline constexpr auto symbol_vineyard = slot_value<tile_symbol>(ranges.symbols, 1);
inline constexpr std::array<std::string_view, 1> script_keys{"sheep"};

static_assert(counts_match(ranges, move_names.size(), event_names.size(), decision_names.size(),
                           reason_names.size(), figure_names.size(), tile_symbols.size()),
              "slot.hpp's counts and these names differ");

}  // namespace carcassonne::hills_and_sheep
