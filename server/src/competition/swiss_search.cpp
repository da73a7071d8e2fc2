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
// sum over the tables' pairs of their earlier meetings) stay within `limit`. `fail_first`: each
// table is headed by the player with the fewest unmet players left (not the best ranked), its
// other seats going to the players nearest in rank: less faithful to the score groups, it finds
// a seating where the rank order leads the search into a corner it cannot leave in its budget.
class seating_search {
 public:
  seating_search(const seating_problem& p, int limit, long budget, bool fail_first)
      : p_(p),
        n_(static_cast<int>(p.points.size())),
        limit_(limit),
        budget_(budget),
        fail_first_(fail_first) {
    seated_.assign(n_, 0);
    in_top_half_.assign(n_, 0);
    free_of_.assign(n_, 0);
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b < n_; ++b)
        if (a != b && p_.met[a][b] == 0) ++free_of_[a];
    full_size_ = p_.sizes.empty() ? 0 : p_.sizes.front();
    for (int size : p_.sizes) ++(size == full_size_ ? full_left_ : short_left_);
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
    const int need = smallest_left() - 1;
    int missing = 0;
    for (int x = 0; x < n_; ++x)
      if (!seated_[x]) missing += std::max(0, need - free_of_[x]);
    return (missing + 1) / 2;
  }

  bool tick() { return ++nodes_ <= budget_; }

  // The smallest table still to seat (the tables left: `full_left_` of the first size, then
  // `short_left_` one seat short).
  int smallest_left() const {
    return short_left_ > 0 ? full_size_ - 1 : full_left_ > 0 ? full_size_ : 0;
  }

  bool place(std::size_t table) {
    if (full_left_ == 0 && short_left_ == 0) return true;
    if (cost_ + repeats_ahead() > limit_) return false;
    int head = 0;
    while (head < n_ && seated_[head]) ++head;
    if (head == n_) return false;
    if (fail_first_)
      for (int x = head + 1; x < n_; ++x)
        if (!seated_[x] && free_of_[x] < free_of_[head]) head = x;
    tables_.resize(table + 1);
    std::vector<int> order;
    for (int x = fail_first_ ? 0 : head + 1; x < n_; ++x)
      if (!seated_[x] && x != head) order.push_back(x);
    if (fail_first_)
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return std::abs(a - head) < std::abs(b - head); });
    if (p_.dutch && !fail_first_) {
      --full_left_;
      if (place_duel(table, head)) return true;
      ++full_left_;
      return false;
    }
    // The head's table: a full one first, else one seat short (so a repeat can be avoided by
    // seating the head at a short table).
    for (int shortness = 0; shortness < 2; ++shortness) {
      int& left = shortness == 0 ? full_left_ : short_left_;
      if (left == 0) continue;
      const int size = full_size_ - shortness;
      --left;
      seat(head);
      tables_[table] = {head};
      if (fill(table, order, 0, size - 1)) return true;
      unseat(head);
      ++left;
      if (exhausted()) return false;
    }
    return false;
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
  bool fill(std::size_t table, const std::vector<int>& order, std::size_t from, int left) {
    if (left == 0) return place(table + 1);
    for (std::size_t i = from; i < order.size(); ++i) {
      const int c = order[i];
      if (seated_[c]) continue;
      if (!tick()) return false;
      int added = 0;
      for (int m : tables_[table]) added += p_.met[c][m];
      if (cost_ + added > limit_) continue;
      seat(c);
      cost_ += added;
      tables_[table].push_back(c);
      if (fill(table, order, i + 1, left - 1)) return true;
      tables_[table].pop_back();
      cost_ -= added;
      unseat(c);
    }
    return false;
  }

  const seating_problem& p_;
  int n_, limit_;
  long budget_, nodes_ = 0;
  bool fail_first_;
  int cost_ = 0;
  int full_size_ = 0, full_left_ = 0, short_left_ = 0;
  std::vector<char> seated_, in_top_half_;
  std::vector<int> free_of_;
  std::vector<std::vector<int>> tables_;
};

// The start of the repair (below): each table's head, the best ranked player left, takes one seat
// at a time the player its table has met least (rank order breaking ties).
std::vector<std::vector<int>> seat_greedily(const seating_problem& p) {
  const int n = static_cast<int>(p.points.size());
  std::vector<char> seated(n, 0);
  std::vector<std::vector<int>> tables;
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
    }
    std::sort(table.begin(), table.end());
    tables.push_back(std::move(table));
  }
  return tables;
}

// A seating's repeats: the sum over its tables' pairs of their earlier meetings.
int seating_cost(const seating_problem& p, const std::vector<std::vector<int>>& tables) {
  int cost = 0;
  for (const auto& t : tables)
    for (std::size_t i = 0; i < t.size(); ++i)
      for (std::size_t j = i + 1; j < t.size(); ++j) cost += p.met[t[i]][t[j]];
  return cost;
}

// Repairs a seating, when the search ran out of budget, by the swap of two players (or the move
// of one to a table a seat shorter) that removes the most repeats, the players closest in rank
// among equal gains, until no swap or move removes any.
std::vector<std::vector<int>> repair_seating(const seating_problem& p,
                                             std::vector<std::vector<int>> tables) {
  // x's meetings with the players of t but x and `skip`.
  const auto met_at = [&](int x, const std::vector<int>& t, int skip) {
    int sum = 0;
    for (int m : t)
      if (m != x && m != skip) sum += p.met[x][m];
    return sum;
  };
  for (int cost = seating_cost(p, tables); cost > 0;) {
    int best_gain = 0, best_gap = std::numeric_limits<int>::max();
    std::size_t best_a = 0, best_b = 0, best_i = 0, best_j = 0;
    bool best_is_move = false;
    const auto consider = [&](int gain, int gap, std::size_t a, std::size_t i, std::size_t b,
                              std::size_t j, bool move) {
      if (gain > best_gain || (gain == best_gain && gain > 0 && gap < best_gap))
        best_gain = gain, best_gap = gap, best_a = a, best_i = i, best_b = b, best_j = j,
        best_is_move = move;
    };
    for (std::size_t a = 0; a < tables.size(); ++a)
      for (std::size_t b = 0; b < tables.size(); ++b) {
        if (a == b) continue;
        const auto& ta = tables[a];
        const auto& tb = tables[b];
        for (std::size_t i = 0; i < ta.size(); ++i) {
          const int x = ta[i];
          const int x_here = met_at(x, ta, -1);
          if (ta.size() == tb.size() + 1)
            consider(x_here - met_at(x, tb, -1), std::numeric_limits<int>::max() - 1, a, i, b, 0,
                     true);
          if (b < a) continue;
          for (std::size_t j = 0; j < tb.size(); ++j) {
            const int y = tb[j];
            const int gain = x_here + met_at(y, tb, -1) - met_at(y, ta, x) - met_at(x, tb, y);
            consider(gain, std::abs(x - y), a, i, b, j, false);
          }
        }
      }
    if (best_gain <= 0) break;
    if (best_is_move) {
      tables[best_b].push_back(tables[best_a][best_i]);
      tables[best_a].erase(tables[best_a].begin() + static_cast<std::ptrdiff_t>(best_i));
    } else {
      std::swap(tables[best_a][best_i], tables[best_b][best_j]);
    }
    cost -= best_gain;
  }
  for (auto& t : tables) std::sort(t.begin(), t.end());
  std::sort(tables.begin(), tables.end());
  return tables;
}

}  // namespace

std::vector<std::vector<int>> seat_field(const seating_problem& problem) {
  long spent = 0;
  const auto search = [&](int limit, std::vector<std::vector<int>>& tables) {
    for (bool fail_first : {false, true}) {
      const long budget = std::min(seating_budget_per_allowance, seating_budget_total - spent);
      if (budget <= 0) return false;
      seating_search s(problem, limit, budget, fail_first);
      const bool found = s.run();
      spent += s.nodes();
      if (found) {
        tables = s.tables();
        for (auto& t : tables) std::sort(t.begin(), t.end());
        if (fail_first) std::sort(tables.begin(), tables.end());
        return true;
      }
      if (!s.exhausted()) return false;  // none within the limit: the other order finds none
    }
    return false;
  };
  std::vector<std::vector<int>> tables;
  if (search(0, tables)) return tables;
  // No seating without a repeat, or none found within the budget: a repaired greedy seating
  // bounds the repeats; the search then looks for as few, the fewest first (its order keeps the
  // score groups better than the repair does).
  auto repaired = repair_seating(problem, seat_greedily(problem));
  const int repaired_cost = seating_cost(problem, repaired);
  for (int limit = 1; limit <= repaired_cost && spent < seating_budget_total; ++limit)
    if (search(limit, tables)) return tables;
  return repaired;
}

}  // namespace carcassonne::server::competition
