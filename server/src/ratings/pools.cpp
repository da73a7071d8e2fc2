#include "ratings/pools.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <tuple>

namespace carcassonne::server::ratings {

namespace {

// A double as an integer in IEEE 754 total order, so that sorting is well defined for any input.
std::uint64_t ratings_total_key(double x) {
  const auto u = std::bit_cast<std::uint64_t>(x);
  return (u >> 63) != 0 ? ~u : u | (std::uint64_t{1} << 63);
}

auto ratings_result_key(const result& res) {
  return std::tuple{ratings_total_key(res.opponent.r), ratings_total_key(res.opponent.rd),
                    ratings_total_key(res.opponent.sigma), ratings_total_key(res.score)};
}

}  // namespace

std::string_view pool_name(pool p) {
  switch (p) {
    case pool::duel:
      return "duel";
    case pool::duel_expansions:
      return "duel_expansions";
    case pool::multi:
      return "multi";
  }
  return "multi";
}

std::optional<pool> pool_from_name(std::string_view name) {
  for (pool p : all_pools)
    if (pool_name(p) == name) return p;
  return std::nullopt;
}

pool pool_of(int seats, bool any_expansion) {
  if (seats == 2) return any_expansion ? pool::duel_expansions : pool::duel;
  return pool::multi;
}

double pair_score(const standing& a, const standing& b) {
  if (a.forfeited != b.forfeited) return a.forfeited ? 0.0 : 1.0;
  if (a.forfeited) return 0.5;
  if (a.score != b.score) return a.score > b.score ? 1.0 : 0.0;
  return 0.5;
}

std::vector<rating> rate_game(std::span<const rating> before, std::span<const standing> seats,
                              double tau) {
  if (before.size() != seats.size()) return {};
  std::vector<rating> after;
  after.reserve(before.size());
  std::vector<result> period;
  for (std::size_t i = 0; i < before.size(); ++i) {
    // Every opponent at its rating before the game, so no seat's update sees another's.
    period.clear();
    for (std::size_t j = 0; j < before.size(); ++j)
      if (j != i) period.push_back({before[j], pair_score(seats[i], seats[j])});
    // The period's sums in one canonical order: a seat's new rating is then the same bits
    // whatever the order of the other seats (floating-point addition is not associative).
    std::ranges::sort(period, {}, ratings_result_key);
    after.push_back(update(before[i], period, tau));
  }
  return after;
}

}  // namespace carcassonne::server::ratings
