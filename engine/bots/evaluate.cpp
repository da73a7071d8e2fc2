#include "evaluate.hpp"

#include <algorithm>

#include "carcassonne/engine/scoring.hpp"
#include "simulate.hpp"

namespace carcassonne::bots {

namespace {
// A follower in hand is worth about this many points early on (it will claim something later).
constexpr double follower_worth = 2.0;
constexpr double tiles_for_full_worth = 30.0;
constexpr int lookahead = 3;
}  // namespace

double evaluate(const game_state& s, seat_t seat) {
  game_state end = s;
  if (!end.finished) score_game_end(end, nullptr);
  int best_other = -1000000;
  for (int i = 0; i < end.seats; ++i)
    if (i != seat) best_other = std::max(best_other, end.players[i].score);
  const double worth =
      s.finished ? 0.0 : follower_worth * std::min(1.0, s.tiles_left() / tiles_for_full_worth);
  return end.players[seat].score - best_other + worth * s.players[seat].followers;
}

double best_reachable(const game_state& s, seat_t seat, int depth) {
  // A placement still to come (after a gift opened first) is judged before it: exploring every
  // square again for each card would multiply the cost by the number of placements.
  if (depth == 0 || s.finished || s.deciding != seat || s.awaiting == decision::place_tile)
    return evaluate(s, seat);
  const auto moves = legal_actions(s);
  double best = -1e18;
  for (const auto& m : moves) {
    game_state next = s;
    play(next, m);
    best = std::max(
        best, next.turn == s.turn ? best_reachable(next, seat, depth - 1) : evaluate(next, seat));
  }
  return best;
}

std::vector<double> greedy_values(const game_state& s, const std::vector<move>& moves) {
  const seat_t seat = s.deciding;
  std::vector<double> out;
  out.reserve(moves.size());
  for (const auto& m : moves) {
    game_state next = s;
    play(next, m);
    out.push_back(next.turn == s.turn && !next.finished ? best_reachable(next, seat, lookahead - 1)
                                                        : evaluate(next, seat));
  }
  return out;
}

namespace {

void extend_plans(const game_state& s, seat_t seat, turn_plan prefix, std::vector<turn_plan>& out) {
  for (const auto& m : legal_actions(s)) {
    game_state next = s;
    play(next, m);
    turn_plan plan = prefix;
    plan.moves[static_cast<std::size_t>(plan.length++)] = m;
    // As in best_reachable: a placement still to come is judged before it.
    const bool goes_on = plan.length < lookahead && next.turn == s.turn && !next.finished &&
                         next.deciding == seat && next.awaiting != decision::place_tile;
    if (goes_on) {
      extend_plans(next, seat, plan, out);
    } else {
      plan.value = evaluate(next, seat);
      out.push_back(plan);
    }
  }
}

}  // namespace

std::vector<turn_plan> turn_plans(const game_state& s) {
  std::vector<turn_plan> out;
  extend_plans(s, s.deciding, {}, out);
  return out;
}

}  // namespace carcassonne::bots
