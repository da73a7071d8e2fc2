// greedy: one ply (plus the seat's own follow-ups in the same turn) judged by evaluate().
#include "evaluate.hpp"
#include "levels.hpp"

namespace carcassonne::bots {

bot_choice choose_random(const information_set& info, std::uint64_t seed) {
  const auto moves = legal_actions(info.state);
  rng r(seed);
  return {moves[r.below(moves.size())], 0};
}

bot_choice choose_greedy(const information_set& info, std::uint64_t seed) {
  const auto moves = legal_actions(info.state);
  if (moves.size() == 1) return {moves[0], 0};
  const auto values = greedy_values(info.state, moves);
  double best = values[0];
  for (double v : values) best = std::max(best, v);
  std::vector<std::size_t> ties;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (values[i] >= best - 1e-9) ties.push_back(i);
  rng r(seed);
  return {moves[ties[r.below(ties.size())]], 0};
}

}  // namespace carcassonne::bots
