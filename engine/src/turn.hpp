// Internal: the steps of a turn (README "Turn structure"), shared by game.cpp and the tests.
// Expansions reach the few they run themselves through carcassonne/engine/turn_steps.hpp.
#pragma once
#include "carcassonne/engine/game.hpp"

namespace carcassonne::detail {

// Puts a tile on the board and joins its segments to their neighbours' features; returns the
// board index. Does not score or change whose turn it is.
int join_tile(game_state& s, square_pos p, tile_type_id type, int quarter_turns);

// Step 1-2: takes the top tile of the supply into s.drawn, shows it (tile_drawn) and lets every
// expansion see the draw (a revolt). The supply must not be empty.
void draw_from_supply(game_state& s, event_log* events, draw_kind kind = draw_kind::turn);

// Steps 1-3: draws until a placeable tile is shown, or ends the game when the supply is empty.
void begin_turn(game_state& s, event_log* events);

// Final scoring and the end of the game.
void end_game(game_state& s, event_log* events);

// Checks a move against the current decision with the same predicates that generate moves.
status check_legal(const game_state& s, const move& m);
// What legality cannot show (the modules' prechecks: an exhausted scripted draw).
status run_prechecks(const game_state& s, const move& m);
// Both: check_legal, then run_prechecks.
status check_move(const game_state& s, const move& m);

// Applies a checked move and runs the automatic steps up to the next decision.
void perform(game_state& s, const move& m, event_log* events);

// Appends every active expansion's moves for the current decision.
void collect_extra_moves(const game_state& s, std::vector<move>& out);

// Step 8a: puts a follower of m.seat on segment m.feature of the tile just placed (checked).
void deploy_follower(game_state& s, const move& m, event_log* events);

// Whether the seat to act has a free feature on the new tile for a follower (step 8a).
bool can_deploy(const game_state& s, int local_segment);

}  // namespace carcassonne::detail
