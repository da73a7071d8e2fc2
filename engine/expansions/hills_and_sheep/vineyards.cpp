// Hills & Sheep §6: vineyards add to a completed monastery's score.
#include "geometry.hpp"
#include "hills_and_sheep.hpp"

namespace carcassonne::hills_and_sheep::detail {

// +3 per vineyard tile on the 8 surrounding squares of a monastery scored as completed (never at
// the end of the game: the base calls completion bonuses for completed features only).
int vineyard_bonus(const game_state& s, segment_t root) {
  if (s.features.data(root).kind != feature_kind::monastery) return 0;
  const auto& pt = s.board.placed()[s.features.node(root).tile];
  int vineyards = 0;
  for (const auto q : carcassonne::detail::surrounding(pt.pos)) {
    const int t = s.board.tile_at(q);
    if (t >= 0 && tiles()[s.board.placed()[t].type].has(hills_and_sheep::symbol_vineyard))
      ++vineyards;
  }
  return 3 * vineyards;
}

}  // namespace carcassonne::hills_and_sheep::detail
