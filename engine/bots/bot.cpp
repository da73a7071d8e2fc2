// choose_move: the level names and the dispatch to each level (levels.hpp).
#include "carcassonne/engine/bot.hpp"

#include "carcassonne/engine/ladder.hpp"
#include "levels.hpp"

namespace carcassonne {

std::optional<bot_level> bot_level_from_name(std::string_view name) {
  for (std::size_t i = 0; i < bot_level_names.size(); ++i)
    if (bot_level_names[i] == name) return static_cast<bot_level>(i);
  return std::nullopt;
}

bot_choice choose_move(const information_set& info, bot_level level, std::uint64_t seed,
                       const bot_budget& budget) {
  switch (level) {
    case bot_level::greedy:
      return bots::choose_greedy(info, seed);
    case bot_level::strong:
      return bots::choose_strong(info, seed, budget);
    case bot_level::ismcts:
      return bots::choose_ismcts(info, seed, budget);
    case bot_level::random:
      break;
    default:
      if (const auto step = ladder_step_of(level)) return ladder_move(info, *step, seed, budget);
      break;
  }
  return bots::choose_random(info, seed);
}

}  // namespace carcassonne
