// The pools a game is rated in, and a finished game's standing as results between pairs.
//
// Pools: two-player games of the base game alone (`duel`), two-player games with any expansion
// (`duel_expansions`) and games of three to six players (`multi`). Two-player play is what the
// organised scene plays and rates; the expansions change the game enough (and its length) that a
// base-game specialist's rating should not be spent on them; a table of 3+ is a different skill
// (kingmaking, sharing), rated pairwise: each pair of players at the table is one result.
#pragma once
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ratings/glicko2.hpp"

namespace carcassonne::server::ratings {

enum class pool { duel, duel_expansions, multi };
inline constexpr pool all_pools[] = {pool::duel, pool::duel_expansions, pool::multi};

std::string_view pool_name(pool p);  // "duel", "duel_expansions", "multi"
std::optional<pool> pool_from_name(std::string_view name);
pool pool_of(int seats, bool any_expansion);

// One seat at the end of a game.
struct standing {
  int score = 0;
  bool forfeited = false;  // resigned, timed out or left: loses to every seat that did not
};

// The result of seat `a` against seat `b`: 1, 0.5 or 0. A seat that forfeited loses to one that
// did not; two that forfeited draw; otherwise the higher score wins and equal scores draw.
double pair_score(const standing& a, const standing& b);

// Every seat's new rating after one game: `before[i]` is seat i's rating in the game's pool;
// each seat's period holds one result against every other seat at its rating before the game, so
// no seat's update depends on another's, and the result for a seat is the same bits whatever the
// order of the other seats. Empty when `before` and `seats` differ in size.
std::vector<rating> rate_game(std::span<const rating> before, std::span<const standing> seats,
                              double tau = default_tau);

}  // namespace carcassonne::server::ratings
