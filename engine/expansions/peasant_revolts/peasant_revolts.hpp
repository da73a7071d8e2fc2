// The Peasant Revolts (rules/peasant_revolts.md): revolt tiles that drive followers off every
// feature of one kind, and protection (for 4 when deployed, for 2 later) that keeps them there.
#pragma once
#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/game.hpp"
#include "id.hpp"

namespace carcassonne::peasant_revolts {

extern const expansion_module module;

// The tile belongs to the Peasant Revolts set (the revolt tiles).
bool is_revolt_tile(tile_type_id t);

// Whether a figure on the board is a protected (lying) follower.
inline bool is_protected(const figure_on_board& f) {
  return f.mark & protected_mark;
}

// §4.1: protects game_state::figures[index] for `points` (4 when just placed, by any rule).
void protect(game_state& s, std::size_t index, int points, event_log* events);

}  // namespace carcassonne::peasant_revolts
