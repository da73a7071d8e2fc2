// Festival: its moves, events, decisions, points reasons, figures and tile
// symbols, with the values the
// registry gives its slot (slots.hpp), and their names as on the wire and in records.
#pragma once
#include <array>
#include <string_view>

#include "carcassonne/engine/decisions.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/moves.hpp"
#include "id.hpp"

namespace carcassonne::festival {

inline constexpr std::array<std::string_view, 1> move_names{"return_figure"};
inline constexpr auto move_return_figure = slot_value<move_type>(ranges.moves, 0);

inline constexpr std::array<std::string_view, 0> event_names{};

inline constexpr std::array<std::string_view, 0> decision_names{};

inline constexpr std::array<std::string_view, 0> reason_names{};

inline constexpr std::array<std::string_view, 0> figure_names{};

// Its tile symbols, as its tiles' JSON writes them, and the script keys it reads.
inline constexpr std::array<tile_symbol_def, 1> tile_symbols{{{"festival", ""}}};
inline constexpr auto symbol_festival = slot_value<tile_symbol>(ranges.symbols, 0);
inline constexpr std::array<std::string_view, 0> script_keys{};

static_assert(counts_match(ranges, move_names.size(), event_names.size(), decision_names.size(),
                           reason_names.size(), figure_names.size(), tile_symbols.size()),
              "slot.hpp's counts and these names differ");

}  // namespace carcassonne::festival
