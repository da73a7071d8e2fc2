// Properties of ratings over many games (server/src/ratings): a player who always wins only rises,
// one who always loses only falls, and rating a game does not depend on the order of its seats.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "carcassonne/engine/rng.hpp"
#include "ratings/glicko2.hpp"
#include "ratings/pools.hpp"

// Inside the part's namespace: other files of the unity build bring carcassonne::result into scope.
namespace carcassonne::server::ratings {

namespace {

// An opponent drawn from a seeded generator: rating 700 to 2300, deviation 30 to 350.
rating ratings_props_opponent(carcassonne::rng& gen) {
  return {700.0 + static_cast<double>(gen.below(1601)), 30.0 + static_cast<double>(gen.below(321)),
          0.06};
}

}  // namespace

TEST_CASE("ratings properties: always winning only rises, always losing only falls") {
  carcassonne::rng gen{46};
  rating winner{}, loser{};
  for (int game = 0; game < 60; ++game) {
    CAPTURE(game);
    const std::vector<result> won{{ratings_props_opponent(gen), 1.0}};
    const std::vector<result> lost{{ratings_props_opponent(gen), 0.0}};
    const rating next_winner = update(winner, won);
    const rating next_loser = update(loser, lost);
    CHECK(next_winner.r > winner.r);
    CHECK(next_loser.r < loser.r);
    CHECK(std::isfinite(next_winner.rd));
    CHECK(std::isfinite(next_loser.rd));
    winner = next_winner;
    loser = next_loser;
  }
  // And the same at a table of four, where the winner tops every game and the loser forfeits.
  std::vector<rating> table{{}, {}, {}, {}};
  for (int game = 0; game < 30; ++game) {
    CAPTURE(game);
    table[1] = ratings_props_opponent(gen);
    table[2] = ratings_props_opponent(gen);
    const std::vector<standing> seats{{100 + game, false},
                                      {static_cast<int>(gen.below(100)), false},
                                      {static_cast<int>(gen.below(100)), false},
                                      {150, true}};
    const std::vector<rating> after = rate_game(table, seats);
    REQUIRE(after.size() == 4);
    CHECK(after[0].r > table[0].r);
    CHECK(after[3].r < table[3].r);
    table[0] = after[0];
    table[3] = after[3];
  }
}

TEST_CASE("ratings properties: every order of the seats gives each player the same bits") {
  carcassonne::rng gen{4646};
  constexpr std::size_t n = 5;
  std::vector<rating> before;
  std::vector<standing> seats;
  for (std::size_t i = 0; i < n; ++i) {
    before.push_back({ratings_props_opponent(gen).r, ratings_props_opponent(gen).rd,
                      0.04 + 0.01 * static_cast<double>(i)});
    // Scores from a narrow range, so that some tie; one forfeit.
    seats.push_back({static_cast<int>(gen.below(3)) * 10, i == 2});
  }
  const std::vector<rating> reference = rate_game(before, seats);
  REQUIRE(reference.size() == n);
  std::array<std::size_t, n> order{0, 1, 2, 3, 4};
  int permutations = 0;
  do {
    std::vector<rating> shuffled_before;
    std::vector<standing> shuffled_seats;
    for (const std::size_t player : order) {
      shuffled_before.push_back(before[player]);
      shuffled_seats.push_back(seats[player]);
    }
    const std::vector<rating> after = rate_game(shuffled_before, shuffled_seats);
    REQUIRE(after.size() == n);
    for (std::size_t seat = 0; seat < n; ++seat) CHECK(after[seat] == reference[order[seat]]);
    ++permutations;
  } while (std::next_permutation(order.begin(), order.end()));
  CHECK(permutations == 120);
}

}  // namespace carcassonne::server::ratings
