// Playing moves inside the bots' own simulations: a move from legal_actions applied without
// re-checking it, a whole game played out by the rollout policy, and its outcome for a seat.
#pragma once
#include <vector>

#include "carcassonne/engine/game.hpp"

namespace carcassonne::bots {

// Applies a move that legal_actions listed for s (no check; determinized states carry no
// scripted draws for a precheck to refuse).
void play(game_state& s, const move& m);

// The rollout policy: uniform over the moves, except that at the figure step the seat passes
// half of the time (a random player that deploys on every tile runs out of followers at once).
const move& rollout_move(const game_state& s, const std::vector<move>& moves, rng& r);

// Plays s to the end with the rollout policy; `moves` is a reusable buffer.
void play_out(game_state& s, rng& r, std::vector<move>& moves);

// Outcome in [0, 1] for `seat` of a finished game: a win (shared first place counts half)
// weighted with the margin over the best other seat, so that close searches still compare.
double outcome(const game_state& s, seat_t seat);

}  // namespace carcassonne::bots
