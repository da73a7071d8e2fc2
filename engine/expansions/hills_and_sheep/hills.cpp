// Hills & Sheep §3: the tile put face down under a hill, and the hill tie-break.
#include <algorithm>

#include "hills_and_sheep.hpp"
#include "options.hpp"

namespace carcassonne::hills_and_sheep::detail {

namespace {
bool on_hill(const game_state& s, segment_t seg) {
  return tiles()[s.board.placed()[s.features.node(seg).tile].type].has(
      hills_and_sheep::symbol_hill);
}
}  // namespace

// §3.1, step 6a: the top tile of the supply goes under the hill, out of the game and unseen
// (H-8); nothing when the supply is empty or with hills.under_tile = "none".
void hide_tile_under_hill(game_state& s, event_log* events) {
  if (!tiles()[s.board.placed()[s.placed].type].has(hills_and_sheep::symbol_hill)) return;
  if (under_tile_option(s.options) != under_tile_rule::from_supply || s.tiles_left() == 0) return;
  s.out_of_play.push_back(s.supply[s.next_draw++]);
  if (events)
    events->push_back(event{.type = hills_and_sheep::event_tile_hidden, .seat = s.active});
}

// §3.3: among the tied seats, those with followers on hill tiles win the tie.
std::uint8_t hill_tiebreak(const game_state& s, segment_t root, std::uint8_t tied) {
  std::array<int, max_seats> on_hills{};
  for (const auto& f : s.figures)
    if (f.type == figure_type::meeple && (tied >> f.seat & 1) &&
        s.features.root(f.segment) == root && on_hill(s, f.segment))
      ++on_hills[f.seat];
  const bool count_rule = hill_tiebreak_option(s.options) == hill_tiebreak_rule::count_on_hill;
  int best = 0;
  for (int seat = 0; seat < max_seats; ++seat) best = std::max(best, on_hills[seat]);
  if (best == 0) return tied;  // nobody tied stands on a hill: the tie stays
  std::uint8_t out = 0;
  for (int seat = 0; seat < max_seats; ++seat)
    if (on_hills[seat] > 0 && (!count_rule || on_hills[seat] == best))
      out = static_cast<std::uint8_t>(out | 1 << seat);
  return out;
}

}  // namespace carcassonne::hills_and_sheep::detail
