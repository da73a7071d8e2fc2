#include "competition/swiss_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace carcassonne::server::competition {

namespace {

bool search_same_points(double a, double b) {
  return std::abs(a - b) < 1e-9;
}

// A depth-first search for the first seating, in preference order, whose repeated meetings (the
// sum over the tables' pairs of their earlier meetings) stay within `limit`.
class seating_search {
 public:
  seating_search(const seating_problem& p, int limit, long budget)
      : p_(p), n_(static_cast<int>(p.points.size())), limit_(limit), budget_(budget) {
    seated_.assign(n_, 0);
    in_top_half_.assign(n_, 0);
    free_of_.assign(n_, 0);
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b < n_; ++b)
        if (a != b && p_.met[a][b] == 0) ++free_of_[a];
    tables_.resize(p_.sizes.size());
  }

  bool run() { return place(0); }
  bool exhausted() const { return nodes_ > budget_; }
  long nodes() const { return nodes_; }
  const std::vector<std::vector<int>>& tables() const { return tables_; }

 private:
  void seat(int x) {
    seated_[x] = 1;
    for (int y = 0; y < n_; ++y)
      if (!seated_[y] && y != x && p_.met[x][y] == 0) --free_of_[y];
  }
  void unseat(int x) {
    for (int y = 0; y < n_; ++y)
      if (!seated_[y] && y != x && p_.met[x][y] == 0) ++free_of_[y];
    seated_[x] = 0;
  }

  // Repeats still to come, at least: a player with fewer unmet players left than the smallest
  // table needs must meet someone again, and each repeated pair serves at most two such players.
  int repeats_ahead() const {
    const int need = p_.sizes.empty() ? 0 : p_.sizes.back() - 1;
    int missing = 0;
    for (int x = 0; x < n_; ++x)
      if (!seated_[x]) missing += std::max(0, need - free_of_[x]);
    return (missing + 1) / 2;
  }

  bool tick() { return ++nodes_ <= budget_; }

  bool place(std::size_t table) {
    if (table == p_.sizes.size()) return true;
    if (cost_ + repeats_ahead() > limit_) return false;
    int head = 0;
    while (head < n_ && seated_[head]) ++head;
    if (head == n_) return false;
    if (p_.dutch && p_.sizes[table] == 2) return place_duel(table, head);
    seat(head);
    tables_[table] = {head};
    const bool ok = fill(table, head + 1, p_.sizes[table] - 1);
    if (!ok) unseat(head);
    return ok;
  }

  // Dutch: the head of a score group (its unseated players of one score) opens it: the top half
  // meets the bottom half in order. A head alone in its score floats down: the next players in
  // rank order. Other players of the field come after, so a repeat makes a player float.
  bool place_duel(std::size_t table, int head) {
    const auto saved_halves = in_top_half_;
    if (!in_top_half_[head]) {
      std::vector<int> group;
      for (int x = head; x < n_; ++x)
        if (!seated_[x] && search_same_points(p_.points[x], p_.points[head])) group.push_back(x);
      if (group.size() >= 2)
        for (std::size_t i = 0; i < group.size() / 2; ++i) in_top_half_[group[i]] = 1;
    }
    std::vector<int> candidates;
    if (in_top_half_[head])
      for (int x = head + 1; x < n_; ++x)
        if (!seated_[x] && !in_top_half_[x] && search_same_points(p_.points[x], p_.points[head]))
          candidates.push_back(x);
    for (int x = head + 1; x < n_; ++x)
      if (!seated_[x] && std::find(candidates.begin(), candidates.end(), x) == candidates.end())
        candidates.push_back(x);
    seat(head);
    for (int c : candidates) {
      if (!tick()) break;
      const int added = p_.met[head][c];
      if (cost_ + added > limit_) continue;
      seat(c);
      cost_ += added;
      tables_[table] = {head, c};
      if (place(table + 1)) return true;
      cost_ -= added;
      unseat(c);
    }
    unseat(head);
    in_top_half_ = saved_halves;
    return false;
  }

  // A larger table: its other seats go to the next players in rank order (combinations in
  // lexicographic order), skipping a player who would meet a table-mate again.
  bool fill(std::size_t table, int from, int left) {
    if (left == 0) return place(table + 1);
    for (int c = from; c < n_; ++c) {
      if (seated_[c]) continue;
      if (!tick()) return false;
      int added = 0;
      for (int m : tables_[table]) added += p_.met[c][m];
      if (cost_ + added > limit_) continue;
      seat(c);
      cost_ += added;
      tables_[table].push_back(c);
      if (fill(table, c + 1, left - 1)) return true;
      tables_[table].pop_back();
      cost_ -= added;
      unseat(c);
    }
    return false;
  }

  const seating_problem& p_;
  int n_, limit_;
  long budget_, nodes_ = 0;
  int cost_ = 0;
  std::vector<char> seated_, in_top_half_;
  std::vector<int> free_of_;
  std::vector<std::vector<int>> tables_;
};

// The last resort when the search runs out of budget: each table's head takes, one seat at a
// time, the player it has met least (rank order breaking ties).
std::vector<std::vector<int>> seat_greedily(const seating_problem& p, int& cost) {
  const int n = static_cast<int>(p.points.size());
  std::vector<char> seated(n, 0);
  std::vector<std::vector<int>> tables;
  cost = 0;
  for (int size : p.sizes) {
    std::vector<int> table;
    for (int x = 0; x < n && table.empty(); ++x)
      if (!seated[x]) table.push_back(x);
    if (table.empty()) break;
    seated[table[0]] = 1;
    while (static_cast<int>(table.size()) < size) {
      int best = -1, best_added = std::numeric_limits<int>::max();
      for (int c = 0; c < n; ++c) {
        if (seated[c]) continue;
        int added = 0;
        for (int m : table) added += p.met[c][m];
        if (added < best_added) best = c, best_added = added;
      }
      if (best < 0) break;
      seated[best] = 1;
      table.push_back(best);
      cost += best_added;
    }
    std::sort(table.begin(), table.end());
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace

std::vector<std::vector<int>> seat_field(const seating_problem& problem) {
  int greedy_cost = 0;
  auto greedy = seat_greedily(problem, greedy_cost);
  long spent = 0;
  // The fewest repeats first: allowance 0, then 1, ... up to what the greedy seating needs.
  for (int limit = 0; limit <= greedy_cost && spent < seating_budget_total; ++limit) {
    const long budget = std::min(seating_budget_per_allowance, seating_budget_total - spent);
    seating_search search(problem, limit, budget);
    const bool found = search.run();
    spent += search.nodes();
    if (found) {
      auto tables = search.tables();
      for (auto& t : tables) std::sort(t.begin(), t.end());
      return tables;
    }
  }
  return greedy;
}

}  // namespace carcassonne::server::competition
