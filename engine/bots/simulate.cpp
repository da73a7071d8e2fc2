#include "simulate.hpp"

#include <algorithm>
#include <cmath>

#include "evaluate.hpp"

#include "turn.hpp"

namespace carcassonne::bots {

void play(game_state& s, const move& m) {
  detail::perform(s, m, nullptr);
}

const move& rollout_move(const game_state& s, const std::vector<move>& moves, rng& r) {
  if (s.awaiting == decision::figure && moves.size() > 1 && (r.next() & 1))
    return moves.back();  // the figure step's pass is always listed last
  const auto n = s.awaiting == decision::figure ? moves.size() - 1 : moves.size();
  return moves[r.below(std::max<std::size_t>(n, 1))];
}

void play_out(game_state& s, int turns, rng& r, std::vector<move>& moves) {
  const int last = s.turn + turns;
  while (!s.finished && s.turn < last) {
    legal_actions(s, moves);
    play(s, rollout_move(s, moves, r));
  }
}

double outcome(const game_state& s, seat_t seat) {
  constexpr double points_per_unit = 10.0;  // a 10-point lead is worth about 73%
  return 1.0 / (1.0 + std::exp(-evaluate(s, seat) / points_per_unit));
}

}  // namespace carcassonne::bots
