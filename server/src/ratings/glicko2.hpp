// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2022): a rating, its deviation and
// its volatility, updated from the results of one rating period. Every rated game is a rating
// period of its own, so a player's rating moves once per game, as on the servers people know.
#pragma once
#include <span>

namespace carcassonne::server::ratings {

struct rating {
  double r = 1500.0;    // the rating on the Glicko scale
  double rd = 350.0;    // its deviation
  double sigma = 0.06;  // its volatility
  bool operator==(const rating&) const = default;
};

// One game of the period against one opponent: 1 a win, 0.5 a draw, 0 a loss.
struct result {
  rating opponent;
  double score = 0.0;
};

// The system constant: how fast the volatility may change (Glickman suggests 0.3 to 1.2).
inline constexpr double default_tau = 0.5;

// The rating after one period (steps 1-8 of the paper, the volatility found by the Illinois
// algorithm to within 0.000001). No results: only the deviation grows (step 6); results so
// lopsided that they carry no information in a double (an expected score of exactly 0 or 1) count
// as none. The paper's example gives 1464.0507, 151.5165, 0.0599960 here: the paper prints
// 1464.06 because it rounds its intermediate values. Pure and deterministic on one platform; the
// store keeps the result, so other instances never compute it again.
rating update(const rating& player, std::span<const result> results, double tau = default_tau);

// A rating is provisional while its deviation is above this: the server marks it, and
// leaderboards list provisional players after the others.
inline constexpr double provisional_rd = 110.0;
inline bool provisional(const rating& r) {
  return r.rd > provisional_rd;
}

}  // namespace carcassonne::server::ratings
