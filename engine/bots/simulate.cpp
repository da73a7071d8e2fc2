#include "simulate.hpp"

#include <algorithm>

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

void play_out(game_state& s, rng& r, std::vector<move>& moves) {
  while (!s.finished) {
    legal_actions(s, moves);
    play(s, rollout_move(s, moves, r));
  }
}

double outcome(const game_state& s, seat_t seat) {
  int best_other = -1000000;
  for (int i = 0; i < s.seats; ++i)
    if (i != seat) best_other = std::max(best_other, s.players[i].score);
  const int margin = s.players[seat].score - best_other;
  const double win = margin > 0 ? 1.0 : margin == 0 ? 0.5 : 0.0;
  const double shaped = std::clamp(0.5 + margin / 100.0, 0.0, 1.0);
  return 0.7 * win + 0.3 * shaped;
}

}  // namespace carcassonne::bots
