#include "carcassonne/engine/bot.hpp"

#include <algorithm>

namespace carcassonne {

std::optional<bot_level> bot_level_from_name(std::string_view name) {
  for (std::size_t i = 0; i < bot_level_names.size(); ++i)
    if (bot_level_names[i] == name) return static_cast<bot_level>(i);
  return std::nullopt;
}

information_set information_set_of(const game_state& s, seat_t seat) {
  information_set info{s, seat};
  // The supply's order and the generator are hidden from every seat: sorted, reset.
  auto rest = info.state.supply.begin() + info.state.next_draw;
  std::sort(rest, info.state.supply.end());
  std::sort(info.state.out_of_play.begin(), info.state.out_of_play.end());
  info.state.random = rng(0);
  return info;
}

bot_choice choose_move(const information_set& info, bot_level, std::uint64_t seed,
                       const bot_budget&) {
  // random: a uniformly random legal move.
  const auto moves = legal_actions(info.state);
  rng r(seed);
  return {moves[r.below(moves.size())], 0};
}

}  // namespace carcassonne
