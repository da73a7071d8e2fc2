#include "carcassonne/engine/board.hpp"

#include "geometry.hpp"

namespace carcassonne {

board::board() : table_(512, 0) {}

void board::grow_table() {
  ++table_bits_;
  table_.assign(std::size_t{1} << table_bits_, 0);
  const std::size_t mask = table_.size() - 1;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    std::size_t i = hash_pos(cells_[c].pos, table_bits_);
    while (table_[i] != 0) i = (i + 1) & mask;
    table_[i] = static_cast<std::uint16_t>(c + 1);
  }
}

int board::add_cell(square_pos p) {
  if ((cells_.size() + 1) * 2 > table_.size()) grow_table();
  cells_.push_back(cell{p});
  const std::size_t mask = table_.size() - 1;
  std::size_t i = hash_pos(p, table_bits_);
  while (table_[i] != 0) i = (i + 1) & mask;
  table_[i] = static_cast<std::uint16_t>(cells_.size());
  return static_cast<int>(cells_.size() - 1);
}

bool board::placeable(const tile_type& t) const {
  for (const auto& sq : open_)
    if (t.fitting[sq.requirement]) return true;
  return false;
}

int board::place(square_pos p, tile_type_id type, int quarter_turns, std::uint16_t first_segment) {
  const auto& t = tiles()[type];
  int c = find_cell(p);
  if (c < 0) c = add_cell(p);  // only the start tile lands on a square that was never open
  const int index = static_cast<int>(placed_.size());
  placed_.push_back(
      placed_tile{p, type, static_cast<std::uint8_t>(quarter_turns), 0, first_segment});

  // The square stops being open: swap-remove keeps open_ dense (order stays deterministic).
  if (const int o = cells_[c].open; o >= 0) {
    const int last = static_cast<int>(open_.size()) - 1;
    if (o != last) {
      open_[o] = open_[last];
      cells_[find_cell(open_[o].pos)].open = static_cast<std::int16_t>(o);
    }
    open_.pop_back();
    cells_[c].open = -1;
  }
  cells_[c].placed = static_cast<std::int16_t>(index);

  // Empty orthogonal neighbours become open squares that require our facing side.
  for (int e = 0; e < 4; ++e) {
    const square_pos n = detail::neighbour(p, e);
    int nc = find_cell(n);
    if (nc < 0) {
      nc = add_cell(n);
      cells_[nc].open = static_cast<std::int16_t>(open_.size());
      open_.push_back(open_square{n, 0});
    }
    if (cells_[nc].open < 0) continue;
    const int facing = opposite_edge(e);
    const int kind = t.packed_sides[quarter_turns] >> (2 * e) & 3;
    auto& sq = open_[cells_[nc].open];
    sq.requirement |= static_cast<std::uint8_t>(kind << (2 * facing));
    sq.mask |= static_cast<std::uint8_t>(3 << (2 * facing));
  }

  // Surrounding counts (monasteries and other 3x3 rules read them).
  for (const auto q : detail::surrounding(p)) {
    const int other = tile_at(q);
    if (other < 0) continue;
    ++placed_[other].surrounding;
    ++placed_[index].surrounding;
  }
  return index;
}

}  // namespace carcassonne
