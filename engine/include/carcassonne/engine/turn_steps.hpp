// The base turn's steps that an expansion's own rules run as part of theirs (Take 2's extra
// draws, a trial placement, a protected deployment): what the engine offers its modules, so that
// none reaches into the engine's private sources.
#pragma once
#include "carcassonne/engine/game.hpp"

namespace carcassonne::turn_steps {

// Puts a tile on the board and joins its segments to their neighbours' features; returns the
// board index. Does not score or change whose turn it is.
int join_tile(game_state& s, square_pos p, tile_type_id type, int quarter_turns);

// Steps 1-2: takes the top tile of the supply into s.drawn, shows it and lets every expansion see
// the draw (tile_drawn, with `kind`). The supply must not be empty.
void draw_from_supply(game_state& s, event_log* events, draw_kind kind = draw_kind::turn);

// Whether the seat to act has a free feature on the new tile for a follower (step 8a).
bool can_deploy(const game_state& s, int local_segment);

// Step 8a: puts a follower of m.seat on segment m.feature of the tile just placed (checked).
void deploy_follower(game_state& s, const move& m, event_log* events);

}  // namespace carcassonne::turn_steps
