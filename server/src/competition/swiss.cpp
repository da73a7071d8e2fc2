#include "competition/swiss.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <set>

#include "competition/swiss_search.hpp"
#include "competition/table_layout.hpp"

namespace carcassonne::server::competition {

namespace {

// Points are sums of halves divided by k - 1: equal totals may differ in the last bits.
bool same_points(double a, double b) {
  return std::abs(a - b) < 1e-9;
}

struct swiss_tally {
  double points = 0;
  int games = 0, byes = 0, first_seats = 0;
};

std::map<std::string, swiss_tally> tally_history(const swiss_history& history) {
  std::map<std::string, swiss_tally> out;
  for (const auto& game : history.games) {
    const auto points = table_points(game);
    for (std::size_t i = 0; i < game.players.size(); ++i) {
      auto& t = out[game.players[i]];
      t.points += points[i];
      ++t.games;
      if (i == 0) ++t.first_seats;
    }
  }
  for (const auto& b : history.byes) {
    auto& t = out[b.player];
    t.points += b.points;
    ++t.byes;
  }
  return out;
}

double result_of(const table_result& t, std::size_t i, std::size_t j) {
  if (i >= t.results.size() || j >= t.results[i].size()) return 0.0;
  return t.results[i][j];
}

struct ranked_player {
  std::string id;
  double rating = 0;
  swiss_tally tally;
};

// The pairing's ranking: points, then rating, then id.
bool ranks_before(const ranked_player& a, const ranked_player& b) {
  if (!same_points(a.tally.points, b.tally.points)) return a.tally.points > b.tally.points;
  if (a.rating != b.rating) return a.rating > b.rating;
  return a.id < b.id;
}

// Seat order: the player who sat first least often for its share of games (a duel's player
// owed the first seat) takes it, the higher ranked first among equals.
void order_seats(std::vector<int>& table, const std::vector<ranked_player>& field) {
  const int k = static_cast<int>(table.size());
  std::stable_sort(table.begin(), table.end(), [&](int a, int b) {
    const auto owed = [&](int x) { return field[x].tally.first_seats * k - field[x].tally.games; };
    return owed(a) < owed(b);
  });
}

}  // namespace

std::vector<double> table_points(const table_result& t) {
  const std::size_t k = t.players.size();
  std::vector<double> out(k, 0.0);
  if (k < 2) return out;
  for (std::size_t i = 0; i < k; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < k; ++j)
      if (j != i) sum += result_of(t, i, j);
    out[i] = sum / static_cast<double>(k - 1);
  }
  return out;
}

int times_met(const swiss_history& history, const std::string& a, const std::string& b) {
  if (a == b) return 0;
  int count = 0;
  for (const auto& game : history.games) {
    const auto& p = game.players;
    if (std::find(p.begin(), p.end(), a) != p.end() && std::find(p.begin(), p.end(), b) != p.end())
      ++count;
  }
  return count;
}

round_pairing pair_swiss_round(std::span<const entrant> active, const swiss_history& history,
                               int table_size, std::span<const std::string> requested_byes) {
  const int k = std::clamp(table_size, 2, 6);
  const auto tallies = tally_history(history);
  std::vector<ranked_player> field;
  std::set<std::string> seen;
  for (const auto& e : active) {
    if (!seen.insert(e.id).second) continue;
    const auto it = tallies.find(e.id);
    field.push_back({e.id, e.rating, it == tallies.end() ? swiss_tally{} : it->second});
  }
  std::sort(field.begin(), field.end(), ranks_before);

  std::vector<char> sits_out(field.size(), 0);
  std::vector<int> pool;  // indices into field, in rank order
  for (std::size_t i = 0; i < field.size(); ++i) {
    const bool asked = std::find(requested_byes.begin(), requested_byes.end(), field[i].id) !=
                       requested_byes.end();
    if (asked)
      sits_out[i] = 1;
    else
      pool.push_back(static_cast<int>(i));
  }
  const auto layout = layout_tables(static_cast<int>(pool.size()), k);
  // The byes the tables leave: fewest byes so far first, the lowest ranked among them.
  auto by_bye = pool;
  std::stable_sort(by_bye.begin(), by_bye.end(), [&](int a, int b) {
    if (field[a].tally.byes != field[b].tally.byes)
      return field[a].tally.byes < field[b].tally.byes;
    return a > b;
  });
  for (int i = 0; i < layout.sit_out; ++i) sits_out[by_bye[i]] = 1;
  std::erase_if(pool, [&](int i) { return sits_out[i] != 0; });

  seating_problem problem;
  std::map<std::string, int> index_of;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    index_of[field[pool[i]].id] = static_cast<int>(i);
    problem.points.push_back(field[pool[i]].tally.points);
  }
  problem.met.assign(pool.size(), std::vector<int>(pool.size(), 0));
  for (const auto& game : history.games) {
    std::vector<int> at;
    for (const auto& id : game.players)
      if (const auto it = index_of.find(id); it != index_of.end()) at.push_back(it->second);
    for (int a : at)
      for (int b : at)
        if (a != b) ++problem.met[a][b];
  }
  problem.sizes = layout.sizes;
  problem.dutch = k == 2;

  round_pairing out;
  for (auto table : seat_field(problem)) {
    for (int& x : table) x = pool[x];
    order_seats(table, field);
    auto& ids = out.tables.emplace_back();
    for (int x : table) ids.push_back(field[x].id);
  }
  for (std::size_t i = 0; i < field.size(); ++i)
    if (sits_out[i]) out.byes.push_back(field[i].id);
  return out;
}

std::vector<standing> swiss_standings(std::span<const entrant> entrants,
                                      const swiss_history& history) {
  const auto tallies = tally_history(history);
  const auto final_points = [&](const std::string& id) {
    const auto it = tallies.find(id);
    return it == tallies.end() ? 0.0 : it->second.points;
  };
  std::vector<standing> out;
  std::map<std::string, std::size_t> row;
  std::map<std::string, double> rating;
  for (const auto& e : entrants) {
    if (row.contains(e.id)) continue;
    row[e.id] = out.size();
    rating[e.id] = e.rating;
    standing s;
    s.id = e.id;
    if (const auto it = tallies.find(e.id); it != tallies.end()) {
      s.points = it->second.points;
      s.games = it->second.games;
      s.byes = it->second.byes;
    }
    out.push_back(s);
  }
  for (const auto& game : history.games) {
    const std::size_t k = game.players.size();
    if (k < 2) continue;
    for (std::size_t i = 0; i < k; ++i) {
      const auto it = row.find(game.players[i]);
      if (it == row.end()) continue;
      auto& s = out[it->second];
      for (std::size_t j = 0; j < k; ++j) {
        if (j == i) continue;
        const double mate = final_points(game.players[j]);
        s.buchholz += mate;
        s.sonneborn_berger += result_of(game, i, j) * mate / static_cast<double>(k - 1);
      }
    }
  }
  std::sort(out.begin(), out.end(), [&](const standing& a, const standing& b) {
    if (!same_points(a.points, b.points)) return a.points > b.points;
    if (!same_points(a.buchholz, b.buchholz)) return a.buchholz > b.buchholz;
    if (!same_points(a.sonneborn_berger, b.sonneborn_berger))
      return a.sonneborn_berger > b.sonneborn_berger;
    if (rating.at(a.id) != rating.at(b.id)) return rating.at(a.id) > rating.at(b.id);
    return a.id < b.id;
  });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i) + 1;
  return out;
}

}  // namespace carcassonne::server::competition
