// How a field is split into tables, shared by the Swiss pairing and the knockout's first round:
// the fewest players sitting out so that the others fill tables of `table_size`, each at most one
// seat short and never below 2 players, in the fewest tables. Pure.
#pragma once
#include <vector>

namespace carcassonne::server::competition {

struct table_layout {
  int sit_out = 0;         // players left without a table (byes)
  std::vector<int> sizes;  // the tables' sizes, full tables first
};

inline table_layout layout_tables(int players, int table_size) {
  table_layout out;
  if (players < 2 || table_size < 2) {
    out.sit_out = players < 0 ? 0 : players;
    return out;
  }
  const int k = table_size;
  // Duels: a table of one seat short would be a single player; an odd field leaves one out.
  const int short_size = k == 2 ? 2 : k - 1;
  for (int out_count = 0; out_count <= players; ++out_count) {
    const int seated = players - out_count;
    const int tables = (seated + k - 1) / k;
    if (tables * short_size > seated) continue;
    const int short_tables = tables * k - seated;
    out.sit_out = out_count;
    out.sizes.assign(tables - short_tables, k);
    out.sizes.insert(out.sizes.end(), short_tables, k - 1);
    return out;
  }
  out.sit_out = players;
  return out;
}

}  // namespace carcassonne::server::competition
