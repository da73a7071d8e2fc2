// Engine tests: a game brought to a position by random legal moves (seeded, so repeatable).
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/engine/rng.hpp"

namespace carcassonne::test {

// A new game of `seats` with these expansions and seed.
inline game_state seeded_game(expansion_set expansions, int seats, const std::string& seed) {
  game_setup setup;
  setup.seats = seats;
  setup.expansions = expansions;
  setup.seed = seed;
  auto game = new_game(setup);
  REQUIRE(game.ok());
  return game.value();
}

// A game of `seats` after random moves until `until` holds (or the game nears its end).
template <class Pred>
game_state play_until(expansion_set expansions, int seats, const std::string& seed, Pred until) {
  game_state s = seeded_game(expansions, seats, seed);
  rng chooser = rng::from_string(seed + "/moves");
  while (!s.finished && !until(s)) {
    const auto moves = legal_actions(s);
    REQUIRE(apply_in_place(s, moves[chooser.below(moves.size())]).ok());
  }
  REQUIRE_FALSE(s.finished);
  return s;
}

}  // namespace carcassonne::test
