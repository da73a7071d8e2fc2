// The search behind the Swiss pairing (swiss.hpp): seats a ranked field at tables of given sizes
// so that the fewest pairs meet again, preferring, among seatings as good, the Dutch order (a
// duel's score group split in halves, top against bottom; a larger table filled by the next
// players in rank order). Pure and deterministic; bounded, so a large field is seated at once.
#pragma once
#include <vector>

namespace carcassonne::server::competition {

struct seating_problem {
  std::vector<double> points;         // by rank (index 0 the best)
  std::vector<std::vector<int>> met;  // met[a][b]: times a and b sat at one table
  std::vector<int> sizes;             // the tables' sizes: k, and k - 1 for the short ones
  bool dutch = true;  // duels: halves of a score group; else (tables of 3-6) the next players
};

// Tables of rank indices in board order (by their best ranked player), each table's players in
// rank order. When no seating without a repeat is found within the budget, a greedy seating
// repaired by swaps bounds the repeats and the search looks for one with fewer.
std::vector<std::vector<int>> seat_field(const seating_problem& problem);

// The search's bound: at most this many seats tried for one repeat allowance in one order, and
// in all (some hundred milliseconds for 256 players).
inline constexpr long seating_budget_per_allowance = 60000;
inline constexpr long seating_budget_total = 300000;

}  // namespace carcassonne::server::competition
