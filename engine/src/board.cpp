#include "carcassonne/engine/board.hpp"

#include <algorithm>
#include <array>

#include "geometry.hpp"

namespace carcassonne {

namespace {

// Squares added beyond the needed ones on a side that grows, so that growing is rare.
constexpr int grid_margin = 4;

}  // namespace

void board::cover(square_pos p) {
  const int need_x0 = p.x - 1, need_x1 = p.x + 1, need_y0 = p.y - 1, need_y1 = p.y + 1;
  const int old_x1 = x0_ + width_ - 1, old_y1 = y0_ + height_ - 1;
  if (!cells_.empty() && need_x0 >= x0_ && need_x1 <= old_x1 && need_y0 >= y0_ && need_y1 <= old_y1)
    return;
  int x0 = need_x0 - grid_margin, x1 = need_x1 + grid_margin;
  int y0 = need_y0 - grid_margin, y1 = need_y1 + grid_margin;
  if (!cells_.empty()) {  // keep the old extent; add the margin only on the sides that grow
    x0 = need_x0 < x0_ ? x0 : x0_;
    x1 = need_x1 > old_x1 ? x1 : old_x1;
    y0 = need_y0 < y0_ ? y0 : y0_;
    y1 = need_y1 > old_y1 ? y1 : old_y1;
  }
  const int width = x1 - x0 + 1, height = y1 - y0 + 1;
  std::vector<cell> grown(static_cast<std::size_t>(width * height));
  for (int y = 0; y < height_; ++y)
    std::copy_n(cells_.begin() + y * width_, width_,
                grown.begin() + (y + y0_ - y0) * width + (x0_ - x0));
  cells_ = std::move(grown);
  x0_ = static_cast<std::int16_t>(x0);
  y0_ = static_cast<std::int16_t>(y0);
  width_ = static_cast<std::uint16_t>(width);
  height_ = static_cast<std::uint16_t>(height);
}

bool board::placeable(const tile_type& t) const {
  for (const auto& sq : open_)
    if (t.fitting[sq.requirement]) return true;
  return false;
}

int board::place(square_pos p, tile_type_id type, int quarter_turns, std::uint16_t first_segment) {
  const auto& t = tiles()[type];
  cover(p);  // p's neighbours are then inside the grid too
  const int c = cell_index(p);
  const int index = static_cast<int>(placed_.size());
  placed_.push_back(
      placed_tile{p, type, static_cast<std::uint8_t>(quarter_turns), 0, first_segment});

  // The square stops being open: swap-remove keeps open_ dense (order stays deterministic).
  if (const int o = cells_[c].open; o >= 0) {
    const int last = static_cast<int>(open_.size()) - 1;
    if (o != last) {
      open_[o] = open_[last];
      cells_[cell_index(open_[o].pos)].open = static_cast<std::int16_t>(o);
    }
    open_.pop_back();
    cells_[c].open = -1;
  }
  cells_[c].placed = static_cast<std::int16_t>(index);

  // Empty orthogonal neighbours become open squares that require our facing side. Their cells
  // are read by offset in the grid (edge e's neighbour: edge_dx, edge_dy), without bounds tests.
  const int sides = t.packed_sides[quarter_turns];
  const int w = width_;
  const std::array<int, 4> step{-w, 1, w, -1};
  for (int e = 0; e < 4; ++e) {
    auto& nc = cells_[c + step[e]];
    if (nc.placed >= 0) continue;
    if (nc.open < 0) {
      nc.open = static_cast<std::int16_t>(open_.size());
      open_.push_back(open_square{detail::neighbour(p, e), 0});
    }
    const int facing = opposite_edge(e);
    const int kind = sides >> (2 * e) & 3;
    auto& sq = open_[nc.open];
    sq.requirement |= static_cast<std::uint8_t>(kind << (2 * facing));
    sq.mask |= static_cast<std::uint8_t>(3 << (2 * facing));
  }

  // Surrounding counts (monasteries and other 3x3 rules read them); all 8 lie inside the grid.
  for (const int offset : {-w - 1, -w, -w + 1, 1, w + 1, w, w - 1, -1}) {
    const int other = cells_[c + offset].placed;
    if (other < 0) continue;
    ++placed_[other].surrounding;
    ++placed_[index].surrounding;
  }
  return index;
}

}  // namespace carcassonne
