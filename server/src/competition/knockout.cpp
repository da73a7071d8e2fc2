#include "competition/knockout.hpp"

#include <algorithm>
#include <cstddef>

#include "competition/table_layout.hpp"

namespace carcassonne::server::competition {

namespace {

// Deals `count` seeds (0-based, best first) to groups of the given capacities in a snake: group
// 0, 1, ..., last, then last, ..., 0, and again, passing over the groups already full.
std::vector<std::vector<int>> snake_deal(int count, const std::vector<int>& capacities) {
  const int groups = static_cast<int>(capacities.size());
  std::vector<std::vector<int>> out(groups);
  int seed = 0;
  for (int pass = 0; seed < count && groups > 0; ++pass)
    for (int step = 0; step < groups && seed < count; ++step) {
      const int g = pass % 2 == 0 ? step : groups - 1 - step;
      if (static_cast<int>(out[g].size()) < capacities[g]) out[g].push_back(seed++);
    }
  return out;
}

// The order of `slots` seeded slots (0-based) in a bracket whose later rounds take consecutive
// groups of `table_size` (the last one shorter): each group is a snake of the seeds, and the
// groups themselves are in this order one round up, so the best seeds meet as late as they can.
// For duels on a power of two this is the standard bracket (1 v 8, 4 v 5, 2 v 7, 3 v 6).
std::vector<int> bracket_order(int slots, int table_size) {
  if (slots <= 1) return std::vector<int>(slots, 0);
  const int groups = (slots + table_size - 1) / table_size;
  const auto group_order = bracket_order(groups, table_size);
  std::vector<int> capacities(groups, table_size);
  capacities[group_order.back()] = slots - table_size * (groups - 1);
  const auto members = snake_deal(slots, capacities);
  std::vector<int> out;
  for (int g : group_order) out.insert(out.end(), members[g].begin(), members[g].end());
  return out;
}

knockout_round first_duel_round(std::span<const std::string> seeded) {
  const int n = static_cast<int>(seeded.size());
  int field = 1;
  while (field < n) field *= 2;
  const auto order = bracket_order(field, 2);
  knockout_round out;
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
    const int a = std::min(order[i], order[i + 1]), b = std::max(order[i], order[i + 1]);
    if (b < n)
      out.slots.push_back({seeded[a], seeded[b]});
    else
      out.slots.push_back({seeded[a]});  // the lower seed is missing: a bye
  }
  return out;
}

knockout_round first_table_round(std::span<const std::string> seeded, int table_size) {
  const int n = static_cast<int>(seeded.size());
  // Too few for a table one seat short: they all play the final at once.
  if (n < table_size - 1) return {{std::vector<std::string>(seeded.begin(), seeded.end())}};
  const auto layout = layout_tables(n, table_size);
  // The top seeds sit out (byes); the short tables are the ones of the next best seeds.
  auto sizes = layout.sizes;
  std::reverse(sizes.begin(), sizes.end());
  const auto tables = snake_deal(n - layout.sit_out, sizes);
  std::vector<std::vector<std::string>> by_seed;  // slots, best slot first
  for (int i = 0; i < layout.sit_out; ++i) by_seed.push_back({seeded[i]});
  for (const auto& t : tables) {
    auto& slot = by_seed.emplace_back();
    for (int s : t) slot.push_back(seeded[layout.sit_out + s]);
  }
  knockout_round out;
  for (int i : bracket_order(static_cast<int>(by_seed.size()), table_size))
    out.slots.push_back(by_seed[i]);
  return out;
}

}  // namespace

knockout_round first_knockout_round(std::span<const std::string> seeded, int table_size) {
  const int k = std::clamp(table_size, 2, 6);
  if (seeded.size() < 2) return {};
  return k == 2 ? first_duel_round(seeded) : first_table_round(seeded, k);
}

knockout_round next_knockout_round(std::span<const std::string> through, int table_size) {
  const std::size_t k = static_cast<std::size_t>(std::clamp(table_size, 2, 6));
  knockout_round out;
  if (through.size() < 2) return out;
  for (std::size_t i = 0; i < through.size(); i += k) {
    const std::size_t end = std::min(through.size(), i + k);
    out.slots.emplace_back(through.begin() + static_cast<std::ptrdiff_t>(i),
                           through.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return out;
}

int knockout_rounds(int n, int table_size) {
  const int k = std::clamp(table_size, 2, 6);
  if (n < 2) return 0;
  int slots = 0;
  if (k == 2) {
    int field = 1;
    while (field < n) field *= 2;
    slots = field / 2;
  } else if (n < k - 1) {
    return 1;
  } else {
    const auto layout = layout_tables(n, k);
    slots = layout.sit_out + static_cast<int>(layout.sizes.size());
  }
  int rounds = 1;
  for (; slots > 1; ++rounds) slots = (slots + k - 1) / k;
  return rounds;
}

}  // namespace carcassonne::server::competition
