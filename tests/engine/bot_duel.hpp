// Engine tests: base games of two seats between two bot levels, seats alternated game by game,
// the same seeds every run (so the count is exact for a build).
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "carcassonne/engine/bot.hpp"
#include "carcassonne/engine/game.hpp"

namespace carcassonne::test {

// How many of `games` the `upper` level wins against `lower` (a draw is no win); game g has the
// seed seed_prefix + g, and `upper` sits at seat g mod 2.
inline int duel_wins(bot_level upper, bot_level lower, const std::string& seed_prefix, int games,
                     const bot_budget& budget = {}) {
  int wins = 0;
  for (int g = 0; g < games; ++g) {
    game_setup setup;
    setup.seed = seed_prefix + std::to_string(g);
    auto game = new_game(setup);
    REQUIRE(game.ok());
    game_state s = game.value();
    const seat_t upper_seat = static_cast<seat_t>(g % 2);
    std::uint64_t seed = 0;
    while (!s.finished) {
      const seat_t seat = to_act(s);
      const auto level = seat == upper_seat ? upper : lower;
      const auto choice = choose_move(information_set_of(s, seat), level, ++seed, budget);
      REQUIRE(apply_in_place(s, choice.chosen).ok());
    }
    wins += s.players[upper_seat].score > s.players[1 - upper_seat].score;
  }
  return wins;
}

}  // namespace carcassonne::test
