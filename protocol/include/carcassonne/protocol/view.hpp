// Views: what one seat, or a spectator, may see of a game, built field by field from the state.
// Hidden information (the supply order, anything an expansion hides) is never copied in: only
// counts. A seat's view lists its legal moves when it must act.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/view_doc.hpp"

namespace carcassonne::protocol {

// seat = 0..5 for a seat's view, spectator for everyone else.
inline constexpr int spectator = -1;

// The whole view of `viewer`: public_view plus private_view's keys.
nlohmann::json build_view(const game_state& s, int viewer, const std::vector<std::string>& names);

// The part every viewer shares (no "viewer", no "legal_moves"): built and diffed once per change.
nlohmann::json public_view(const game_state& s, const std::vector<std::string>& names);

// The same parts as text documents, for the server's diffs (view_doc.hpp).
view_doc public_doc(const game_state& s, const std::vector<std::string>& names);
view_doc private_doc(const game_state& s, int viewer);

// The viewer's own top-level keys: "viewer", and "legal_moves" when that seat must act. Its diff
// paths are valid on the whole view, since its keys never appear in the public part.
nlohmann::json private_view(const game_state& s, int viewer);

}  // namespace carcassonne::protocol
