#include "simulate.hpp"

#include <algorithm>
#include <cmath>

#include "evaluate.hpp"

#include "turn.hpp"

namespace carcassonne::bots {

namespace {
// Rollout farmers wait until this few tiles remain: a field claimed early rarely pays back the
// follower it locks for the whole game.
constexpr int farmers_from_tiles_left = 20;

// A deploy of the figure step that claims a feature this turn's tile
// completes (it scores at once and the follower comes back).
bool claims_completed(const game_state& s, const placed_tile& p, const move& m) {
  if (m.type != move_type::deploy || m.at != p.pos) return false;
  const segment_t root = s.features.root(static_cast<segment_t>(p.first_segment + m.feature));
  return std::find(s.completed.begin(), s.completed.end(), root) != s.completed.end();
}

bool early_farmer(const game_state& s, const placed_tile& p, const move& m) {
  if (m.type != move_type::deploy || m.at != p.pos || m.figure != figure_type::meeple) return false;
  const auto& segments = tiles()[p.type].segments;
  return m.feature < segments.size() && segments[m.feature].kind == feature_kind::field &&
         s.tiles_left() > farmers_from_tiles_left;
}

}  // namespace

void play(game_state& s, const move& m) {
  detail::perform(s, m, nullptr);
}

const move& rollout_move(const game_state& s, const std::vector<move>& moves, rng& r) {
  if (s.awaiting != decision::figure || moves.size() < 2 || s.placed < 0)
    return moves[r.below(moves.size())];
  // The figure step's pass is always listed last.
  const auto& p = s.board.placed()[static_cast<std::size_t>(s.placed)];
  for (std::size_t i = 0; i + 1 < moves.size(); ++i)
    if (claims_completed(s, p, moves[i])) return moves[i];
  if (r.next() & 1) return moves.back();
  const move& m = moves[r.below(moves.size() - 1)];
  return early_farmer(s, p, m) ? moves.back() : m;
}

void play_out(game_state& s, int turns, rng& r, std::vector<move>& moves) {
  const int last = s.turn + turns;
  while (!s.finished && s.turn < last) {
    if (s.awaiting == decision::place_tile) {  // rollout_move's uniform draw, without the list
      play(s, random_legal_action(s, r, moves));
      continue;
    }
    legal_actions(s, moves);
    play(s, rollout_move(s, moves, r));
  }
}

double outcome(const game_state& s, seat_t seat) {
  constexpr double points_per_unit = 10.0;  // a 10-point lead is worth about 73%
  return 1.0 / (1.0 + std::exp(-evaluate(s, seat) / points_per_unit));
}

}  // namespace carcassonne::bots
