// Ratings (server/src/ratings): Glicko-2 against Glickman's worked example and its own steps, and
// a finished game's standing turned into pairwise results in the right pool.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "ratings/glicko2.hpp"
#include "ratings/pools.hpp"

// Inside the part's namespace: other files of the unity build bring carcassonne::result into scope.
namespace carcassonne::server::ratings {

namespace {

constexpr double ratings_scale = 173.7178;

bool ratings_finite(const rating& r) {
  return std::isfinite(r.r) && std::isfinite(r.rd) && std::isfinite(r.sigma) && r.rd > 0.0 &&
         r.sigma > 0.0;
}

}  // namespace

TEST_CASE("glicko2: Glickman's worked example") {
  // "Example of the Glicko-2 system": tau 0.5, a player at 1500/200/0.06 beats 1400/30 and loses
  // to 1550/100 and 1700/300. Computed without rounding the result is 1464.0507, 151.5165,
  // 0.0599960; the paper prints 1464.06 because it rounds its intermediate values as it goes.
  const rating player{1500.0, 200.0, 0.06};
  const std::vector<result> period{
      {{1400.0, 30.0, 0.06}, 1.0}, {{1550.0, 100.0, 0.06}, 0.0}, {{1700.0, 300.0, 0.06}, 0.0}};
  const rating after = update(player, period, 0.5);
  CHECK(std::abs(after.r - 1464.05) < 0.005);
  CHECK(std::abs(after.rd - 151.52) < 0.005);
  // The paper's 0.05999 is the exact 0.0599960 cut after five decimals, not rounded: 6e-6 away.
  CHECK(std::abs(after.sigma - 0.05999) < 0.00001);
  CHECK(std::abs(after.sigma - 0.059996) < 0.0000005);
  // The opponents' volatility plays no part in the player's update.
  std::vector<result> other_sigmas = period;
  for (result& res : other_sigmas) res.opponent.sigma = 0.09;
  CHECK(update(player, other_sigmas, 0.5) == after);
  // The default system constant is the example's.
  CHECK(update(player, period) == after);
}

TEST_CASE("glicko2: a period without games only widens the deviation (step 6)") {
  const rating player{1623.0, 80.0, 0.07};
  const rating after = update(player, {});
  const double phi = 80.0 / ratings_scale;
  CHECK(after.r == 1623.0);
  CHECK(after.sigma == 0.07);
  CHECK(after.rd == doctest::Approx(ratings_scale * std::sqrt(phi * phi + 0.07 * 0.07)));
  CHECK(after.rd > player.rd);
  // Again and again: it keeps growing, the rating never moves.
  rating idle = player;
  for (int i = 0; i < 5; ++i) {
    const rating next = update(idle, {});
    CHECK(next.rd > idle.rd);
    CHECK(next.r == player.r);
    idle = next;
  }
}

TEST_CASE("glicko2: equal players who draw keep their ratings and narrow their deviations") {
  for (const double r : {1500.0, 1720.0, 980.0}) {
    const rating player{r, 200.0, 0.06};
    const std::vector<result> draw{{player, 0.5}};
    const rating after = update(player, draw);
    CHECK(after.r == doctest::Approx(r).epsilon(1e-12));
    CHECK(after.rd < player.rd);
    CHECK(ratings_finite(after));
  }
}

TEST_CASE("glicko2: a win raises the rating, a loss lowers it, each narrows the deviation") {
  const rating player{1500.0, 350.0, 0.06};
  const rating opponent{1500.0, 350.0, 0.06};
  const std::vector<result> won{{opponent, 1.0}};
  const std::vector<result> lost{{opponent, 0.0}};
  const rating up = update(player, won);
  const rating down = update(player, lost);
  CHECK(up.r > player.r);
  CHECK(down.r < player.r);
  CHECK(up.rd < player.rd);
  CHECK(down.rd < player.rd);
  // Symmetric: the same distance either way, since the two are equals.
  CHECK(up.r - 1500.0 == doctest::Approx(1500.0 - down.r));
  CHECK(up.rd == doctest::Approx(down.rd));
}

TEST_CASE("glicko2: extreme inputs stay finite and move the right way") {
  const double gaps[] = {-2000.0, -400.0, 0.0, 400.0, 2000.0};
  const double deviations[] = {30.0, 350.0};
  const double volatilities[] = {1e-9, 0.06, 0.3};
  for (const double gap : gaps)
    for (const double rd : deviations)
      for (const double opponent_rd : deviations)
        for (const double sigma : volatilities)
          for (const double score : {0.0, 0.5, 1.0}) {
            CAPTURE(gap);
            CAPTURE(rd);
            CAPTURE(opponent_rd);
            CAPTURE(sigma);
            CAPTURE(score);
            const rating player{1500.0, rd, sigma};
            const std::vector<result> period{{{1500.0 + gap, opponent_rd, 0.06}, score}};
            const rating after = update(player, period);
            CHECK(ratings_finite(after));
            if (score == 1.0) CHECK(after.r >= player.r);
            if (score == 0.0) CHECK(after.r <= player.r);
          }
  // So lopsided that the result carries no information in a double: as if no game was played.
  const rating player{1500.0, 30.0, 0.06};
  const std::vector<result> absurd{{{-1.0e6, 30.0, 0.06}, 1.0}};
  CHECK(update(player, absurd) == update(player, {}));
}

TEST_CASE("pools: names, and a game's pool from its seats and expansions") {
  for (const pool p : all_pools) CHECK(pool_from_name(pool_name(p)) == p);
  CHECK(pool_name(pool::duel) == "duel");
  CHECK(pool_name(pool::duel_expansions) == "duel_expansions");
  CHECK(pool_name(pool::multi) == "multi");
  CHECK_FALSE(pool_from_name("").has_value());
  CHECK_FALSE(pool_from_name("Duel").has_value());
  CHECK_FALSE(pool_from_name("duel ").has_value());
  CHECK(pool_of(2, false) == pool::duel);
  CHECK(pool_of(2, true) == pool::duel_expansions);
  for (int seats = 3; seats <= 6; ++seats) {
    CHECK(pool_of(seats, false) == pool::multi);
    CHECK(pool_of(seats, true) == pool::multi);
  }
}

TEST_CASE("pools: pair scores, forfeits first") {
  const standing high{120, false}, low{80, false}, also_high{120, false};
  const standing high_forfeit{150, true}, low_forfeit{10, true};
  CHECK(pair_score(high, low) == 1.0);
  CHECK(pair_score(low, high) == 0.0);
  CHECK(pair_score(high, also_high) == 0.5);
  // A forfeit loses to any seat that did not forfeit, whatever the scores.
  CHECK(pair_score(high_forfeit, low) == 0.0);
  CHECK(pair_score(low, high_forfeit) == 1.0);
  // Two forfeits draw, whatever the scores.
  CHECK(pair_score(high_forfeit, low_forfeit) == 0.5);
  CHECK(pair_score(low_forfeit, high_forfeit) == 0.5);
}

TEST_CASE("pools: a two-seat game is one result each, from the ratings before it") {
  const std::vector<rating> before{{1500.0, 200.0, 0.06}, {1620.0, 90.0, 0.05}};
  const std::vector<standing> seats{{95, false}, {70, false}};
  const std::vector<rating> after = rate_game(before, seats);
  REQUIRE(after.size() == 2);
  const std::vector<result> first{{before[1], 1.0}};
  const std::vector<result> second{{before[0], 0.0}};
  CHECK(after[0] == update(before[0], first));
  CHECK(after[1] == update(before[1], second));
  CHECK(after[0].r > before[0].r);
  CHECK(after[1].r < before[1].r);
}

TEST_CASE("pools: a three-seat game is two results each, every seat against the same snapshot") {
  const std::vector<rating> before{
      {1500.0, 200.0, 0.06}, {1400.0, 30.0, 0.06}, {1700.0, 300.0, 0.07}};
  const std::vector<standing> seats{{60, false}, {75, false}, {60, false}};
  const std::vector<rating> after = rate_game(before, seats);
  REQUIRE(after.size() == 3);
  const std::vector<std::vector<result>> periods{
      {{before[1], 0.0}, {before[2], 0.5}},
      {{before[0], 1.0}, {before[2], 1.0}},
      {{before[0], 0.5}, {before[1], 0.0}},
  };
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    // The sums may be taken in another order: equal to the last bits, not beyond.
    const rating expected = update(before[i], periods[i]);
    CHECK(after[i].r == doctest::Approx(expected.r).epsilon(1e-12));
    CHECK(after[i].rd == doctest::Approx(expected.rd).epsilon(1e-12));
    CHECK(after[i].sigma == doctest::Approx(expected.sigma).epsilon(1e-12));
  }
}

TEST_CASE("pools: a forfeit is a loss even with the higher score") {
  const std::vector<rating> before{{1500.0, 120.0, 0.06}, {1500.0, 120.0, 0.06}};
  const std::vector<standing> seats{{140, true}, {30, false}};
  const std::vector<rating> after = rate_game(before, seats);
  REQUIRE(after.size() == 2);
  const std::vector<result> lost{{before[1], 0.0}};
  const std::vector<result> won{{before[0], 1.0}};
  CHECK(after[0] == update(before[0], lost));
  CHECK(after[1] == update(before[1], won));
  CHECK(after[0].r < 1500.0);
  CHECK(after[1].r > 1500.0);
  // Both forfeited: a draw, and equals keep their ratings.
  const std::vector<standing> both{{140, true}, {30, true}};
  const std::vector<rating> drawn = rate_game(before, both);
  REQUIRE(drawn.size() == 2);
  CHECK(drawn[0].r == doctest::Approx(1500.0));
  CHECK(drawn[1].r == doctest::Approx(1500.0));
}

TEST_CASE("pools: rating a game is deterministic, and mismatched inputs rate nothing") {
  const std::vector<rating> before{
      {1500.0, 350.0, 0.06}, {1812.5, 64.0, 0.045}, {1333.0, 140.0, 0.08}, {1600.0, 220.0, 0.06}};
  const std::vector<standing> seats{{88, false}, {101, false}, {88, false}, {120, true}};
  const std::vector<rating> once = rate_game(before, seats);
  const std::vector<rating> again = rate_game(before, seats);
  REQUIRE(once.size() == 4);
  CHECK(once == again);
  for (const rating& r : once) CHECK(ratings_finite(r));
  const std::vector<standing> three(seats.begin(), seats.begin() + 3);
  CHECK(rate_game(before, three).empty());
}

}  // namespace carcassonne::server::ratings
