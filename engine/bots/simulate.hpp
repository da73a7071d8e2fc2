// Playing moves inside the bots' own simulations: a move from legal_actions applied without
// re-checking it, a whole game played out by the rollout policy, and its outcome for a seat.
#pragma once
#include <vector>

#include "carcassonne/engine/game.hpp"

namespace carcassonne::bots {

// Applies a move that legal_actions listed for s (no check; determinized states carry no
// scripted draws for a precheck to refuse).
void play(game_state& s, const move& m);

// The rollout policy: uniform over the moves, except at the figure step: a deploy on a feature
// this turn's tile completes is always taken (it scores at once and the follower comes back);
// otherwise the seat passes half of the time (a random player that deploys on every tile runs out
// of followers at once), and a farmer waits until 20 tiles remain.
const move& rollout_move(const game_state& s, const std::vector<move>& moves, rng& r);

// Plays s with the rollout policy for `turns` more turns or to the end; `moves` is a reusable
// buffer.
void play_out(game_state& s, int turns, rng& r, std::vector<move>& moves);

// Outcome in [0, 1] for `seat` of a played-out state: the greedy's evaluate() (the score margin
// over the best other seat if the game ended now, followers in hand counted) through a
// logistic, so that a clear lead counts as a likely win and close positions stay comparable.
double outcome(const game_state& s, seat_t seat);

}  // namespace carcassonne::bots
