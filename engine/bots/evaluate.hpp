// The greedy bot's judgement of a position: what each seat would score if the game ended now,
// plus the worth of the followers still in hand while tiles remain.
#pragma once
#include <array>
#include <vector>

#include "carcassonne/engine/game.hpp"

namespace carcassonne::bots {

// For `seat`: its end-of-game score now less the best other seat's, plus its followers in
// supply at a worth that falls to zero as the supply runs out.
double evaluate(const game_state& s, seat_t seat);

// The best evaluate() `seat` can reach from s by its own further decisions this turn (up to
// `depth` of them: a placement, then its figure, then an expansion's step).
double best_reachable(const game_state& s, seat_t seat, int depth);

// best_reachable after each move (depth 3), in the order of `moves`.
std::vector<double> greedy_values(const game_state& s, const std::vector<move>& moves);

// A plan for the rest of the deciding seat's turn: its next decision and the follow-ups it takes
// itself in the same turn (the figure after a placement, then an expansion's step), judged by
// evaluate() after the last of them.
struct turn_plan {
  std::array<move, 3> moves{};
  int length = 0;
  double value = 0;
};

// Every plan of up to three decisions from s (the tree greedy_values maximizes over), in the
// order of legal_actions at each level.
std::vector<turn_plan> turn_plans(const game_state& s);

}  // namespace carcassonne::bots
