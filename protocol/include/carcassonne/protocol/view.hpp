// Views: what one seat, or a spectator, may see of a game, built field by field from the state.
// Hidden information (the supply order, anything an expansion hides) is never copied in: only
// counts. A seat's view lists its legal moves when it must act.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"

namespace carcassonne::protocol {

// seat = 0..5 for a seat's view, spectator for everyone else.
inline constexpr int spectator = -1;

nlohmann::json build_view(const game_state& s, int viewer, const std::vector<std::string>& names);

}  // namespace carcassonne::protocol
