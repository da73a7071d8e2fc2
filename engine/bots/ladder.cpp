// The ladder's steps (ladder.hpp): a share of random moves, then the step's algorithm.
#include "carcassonne/engine/ladder.hpp"

#include <algorithm>

#include "carcassonne/engine/rng.hpp"
#include "levels.hpp"

namespace carcassonne {

std::optional<ladder_step> ladder_step_of(bot_level level) {
  for (const auto& step : ladder)
    if (step.level == level) return step;
  return std::nullopt;
}

bot_choice ladder_move(const information_set& info, const ladder_step& step, std::uint64_t seed,
                       const bot_budget& budget) {
  rng r(seed);
  if (step.random_permille > 0 && static_cast<int>(r.below(1000)) < step.random_permille)
    return bots::choose_random(info, r.next());
  switch (step.algorithm) {
    case bot_level::greedy:
      return bots::choose_greedy(info, seed);
    case bot_level::strong: {
      bot_budget b = budget;
      b.playouts = std::min(step.playouts, budget.playouts);
      return bots::choose_strong(info, seed, b);
    }
    default:
      return bots::choose_random(info, seed);
  }
}

}  // namespace carcassonne
