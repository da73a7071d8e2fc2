// Swiss tournaments simulated with results from a seeded generator (server/src/competition/swiss):
// every round seats each active player once, never repeats a pairing a seating could avoid (a
// brute force over small fields says how few repeats were possible), gives byes to those with
// the fewest, and the standings match a recomputation of points, Buchholz and Sonneborn–Berger.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "carcassonne/engine/rng.hpp"
#include "competition/swiss.hpp"

// Inside the part's namespace: other files of the unity build bring other `standing`s into scope.
namespace carcassonne::server::competition {

namespace swiss_props {

std::vector<entrant> props_field(int n, carcassonne::rng& gen) {
  std::vector<entrant> out;
  for (int i = 0; i < n; ++i)
    out.push_back({"p" + std::to_string(i), 1000.0 + static_cast<double>(gen.below(1000))});
  return out;
}

// A table's results: each pair a win, a loss or (one in eight) a draw.
table_result props_play(int round, const std::vector<std::string>& players, carcassonne::rng& gen) {
  const std::size_t k = players.size();
  table_result t{round, players, std::vector<std::vector<double>>(k, std::vector<double>(k, 0.0))};
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = i + 1; j < k; ++j) {
      const auto roll = gen.below(8);
      const double r = roll == 0 ? 0.5 : roll < 5 ? 1.0 : 0.0;
      t.results[i][j] = r;
      t.results[j][i] = 1.0 - r;
    }
  return t;
}

int props_repeats(const swiss_history& h, const std::vector<std::vector<std::string>>& tables) {
  int repeats = 0;
  for (const auto& t : tables)
    for (std::size_t i = 0; i < t.size(); ++i)
      for (std::size_t j = i + 1; j < t.size(); ++j) repeats += times_met(h, t[i], t[j]);
  return repeats;
}

// The fewest repeats any seating of `players` at tables of `sizes` allows (brute force: the first
// free player heads a table of each size left, its other seats in increasing order).
int props_fewest_repeats(const swiss_history& h, const std::vector<std::string>& players,
                         std::multiset<int> sizes) {
  if (sizes.empty()) return 0;
  int best = 1 << 20;
  for (int size : std::set<int>(sizes.begin(), sizes.end())) {
    auto left = sizes;
    left.erase(left.find(size));
    // Every set of size - 1 players among players[1..] by a bit mask.
    const std::size_t rest = players.size() - 1;
    for (unsigned mask = 0; mask < (1u << rest); ++mask) {
      if (std::popcount(mask) != size - 1) continue;
      std::vector<std::string> table{players[0]}, others;
      for (std::size_t i = 0; i < rest; ++i)
        ((mask >> i) & 1u ? table : others).push_back(players[i + 1]);
      int added = 0;
      for (std::size_t i = 0; i < table.size(); ++i)
        for (std::size_t j = i + 1; j < table.size(); ++j)
          added += times_met(h, table[i], table[j]);
      if (added >= best) continue;
      best = std::min(best, added + props_fewest_repeats(h, others, left));
    }
  }
  return best;
}

// The standings recomputed from the history alone, and compared with swiss_standings.
void props_check_standings(const std::vector<entrant>& field, const swiss_history& h) {
  std::map<std::string, double> points;
  for (const auto& g : h.games)
    for (std::size_t i = 0; i < g.players.size(); ++i) {
      double sum = 0;
      for (std::size_t j = 0; j < g.players.size(); ++j)
        if (j != i) sum += g.results[i][j];
      points[g.players[i]] += sum / static_cast<double>(g.players.size() - 1);
    }
  for (const auto& b : h.byes) points[b.player] += b.points;
  std::map<std::string, double> buchholz, sb;
  for (const auto& g : h.games)
    for (std::size_t i = 0; i < g.players.size(); ++i)
      for (std::size_t j = 0; j < g.players.size(); ++j) {
        if (j == i) continue;
        buchholz[g.players[i]] += points[g.players[j]];
        sb[g.players[i]] +=
            g.results[i][j] * points[g.players[j]] / static_cast<double>(g.players.size() - 1);
      }
  const auto s = swiss_standings(field, h);
  REQUIRE(s.size() == field.size());
  for (std::size_t r = 0; r < s.size(); ++r) {
    CAPTURE(s[r].id);
    CHECK(s[r].rank == static_cast<int>(r) + 1);
    CHECK(std::abs(s[r].points - points[s[r].id]) < 1e-9);
    CHECK(std::abs(s[r].buchholz - buchholz[s[r].id]) < 1e-9);
    CHECK(std::abs(s[r].sonneborn_berger - sb[s[r].id]) < 1e-9);
    if (r == 0) continue;
    const auto& a = s[r - 1];
    const auto& b = s[r];
    const bool ordered =
        a.points > b.points + 1e-9 ||
        (std::abs(a.points - b.points) < 1e-9 &&
         (a.buchholz > b.buchholz + 1e-9 || (std::abs(a.buchholz - b.buchholz) < 1e-9 &&
                                             a.sonneborn_berger > b.sonneborn_berger - 1e-9)));
    CHECK(ordered);
  }
}

struct props_outcome {
  int repeats = 0;    // pairs that met again, over the event
  int avoidable = 0;  // rounds with more repeats than the fewest possible (brute force)
  long longest_round_us = 0;
};

// Plays `rounds` rounds of `n` players at tables of `k`; `withdraw_after` > 0: the last entrant
// withdraws after that round. `brute_force`: compare each round's repeats with the fewest.
props_outcome props_run(int n, int rounds, int k, std::uint64_t seed, int withdraw_after = 0,
                        bool brute_force = false) {
  carcassonne::rng gen{seed};
  const auto field = props_field(n, gen);
  auto active = field;
  swiss_history h;
  props_outcome out;
  std::map<std::string, int> byes;
  for (int round = 1; round <= rounds; ++round) {
    CAPTURE(round);
    if (withdraw_after > 0 && round == withdraw_after + 1) active.pop_back();
    const auto started = std::chrono::steady_clock::now();
    const auto pairing = pair_swiss_round(active, h, k);
    const auto took = std::chrono::steady_clock::now() - started;
    out.longest_round_us = std::max<long>(
        out.longest_round_us,
        static_cast<long>(std::chrono::duration_cast<std::chrono::microseconds>(took).count()));
    CHECK(pair_swiss_round(active, h, k) == pairing);  // deterministic

    // Every active player exactly once; tables of k, or one seat short, never below 2.
    std::multiset<std::string> seen;
    double round_points = 0;
    for (const auto& t : pairing.tables) {
      CHECK(static_cast<int>(t.size()) <= k);
      CHECK(static_cast<int>(t.size()) >= std::max(2, k - 1));
      seen.insert(t.begin(), t.end());
      round_points += static_cast<double>(t.size()) / 2.0;
    }
    seen.insert(pairing.byes.begin(), pairing.byes.end());
    std::multiset<std::string> expected;
    for (const auto& e : active) expected.insert(e.id);
    CHECK(seen == expected);
    if (k == 2) CHECK(pairing.byes.size() == active.size() % 2);

    // A bye goes to a player with the fewest byes among the active.
    int fewest = 1 << 20;
    for (const auto& e : active) fewest = std::min(fewest, byes[e.id]);
    for (const auto& b : pairing.byes) CHECK(byes[b] == fewest);

    const int repeats = props_repeats(h, pairing.tables);
    out.repeats += repeats;
    if (brute_force) {
      std::vector<std::string> seated;
      std::multiset<int> sizes;
      for (const auto& t : pairing.tables) {
        seated.insert(seated.end(), t.begin(), t.end());
        sizes.insert(static_cast<int>(t.size()));
      }
      if (repeats > props_fewest_repeats(h, seated, sizes)) ++out.avoidable;
    }

    const double before = [&] {
      double sum = 0;
      for (const auto& s : swiss_standings(field, h)) sum += s.points;
      return sum;
    }();
    for (const auto& t : pairing.tables) h.games.push_back(props_play(round, t, gen));
    for (const auto& b : pairing.byes) {
      h.byes.push_back({round, b, 1.0});
      ++byes[b];
      round_points += 1.0;
    }
    double after = 0;
    for (const auto& s : swiss_standings(field, h)) after += s.points;
    CHECK(std::abs(after - before - round_points) < 1e-9);
  }
  props_check_standings(field, h);
  return out;
}

}  // namespace swiss_props

using namespace swiss_props;

TEST_CASE("swiss properties: 32 players over 5 rounds, no repeat") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    CHECK(props_run(32, 5, 2, seed).repeats == 0);
  }
}

TEST_CASE("swiss properties: 33 players over 7 rounds, one a withdrawal, byes spread") {
  CHECK(props_run(33, 7, 2, 7, 3).repeats == 0);
}

TEST_CASE("swiss properties: 256 players over 9 rounds, no repeat, each round at once") {
  const auto out = props_run(256, 9, 2, 47, 4);
  CHECK(out.repeats == 0);
  MESSAGE("longest round: " << out.longest_round_us << " us");
  CHECK(out.longest_round_us < 2'000'000);
}

TEST_CASE("swiss properties: tables of 3 to 6, no repeat in larger fields") {
  CHECK(props_run(40, 5, 4, 11).repeats == 0);
  CHECK(props_run(23, 5, 3, 12).repeats == 0);
  CHECK(props_run(64, 6, 6, 13, 2).repeats == 0);
  CHECK(props_run(31, 4, 5, 14).repeats == 0);
}

TEST_CASE("swiss properties: small fields late in an event, the fewest repeats possible") {
  for (std::uint64_t seed : {21u, 22u, 23u}) {
    CAPTURE(seed);
    CHECK(props_run(6, 9, 2, seed, 0, true).avoidable == 0);
    CHECK(props_run(7, 8, 2, seed, 0, true).avoidable == 0);
    CHECK(props_run(8, 6, 3, seed, 0, true).avoidable == 0);
    CHECK(props_run(9, 5, 4, seed, 0, true).avoidable == 0);
  }
}

}  // namespace carcassonne::server::competition
