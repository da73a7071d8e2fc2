// information_set_of: a state with every hidden part replaced by a canonical form computed only
// from what the seat can see, so that states the seat cannot tell apart give equal results.
#include <algorithm>

#include "carcassonne/engine/bot.hpp"
#include "easter/id.hpp"
#include "gifts/id.hpp"
#include "hidden_tiles.hpp"
#include "hills_and_sheep/id.hpp"

namespace carcassonne {

namespace {

// Tiles: the supply still to draw, the tiles under hills and the revolt tiles set aside are one
// unseen pool whose content is public (every other tile was shown) but whose split is not, and
// the drawn part of the supply hides which tiles went under hills. Canonical: the pool sorted,
// the set-aside ones the lowest revolt tiles, then the ones under hills, the rest the supply;
// the drawn part zeroed (no rule reads a drawn entry's value, only its position).
void canonical_tiles(game_state& s) {
  auto pool = bots::unseen_tiles(s);
  std::sort(pool.begin(), pool.end());
  bots::deal_unseen_tiles(s, pool);
  std::fill(s.supply.begin(), s.supply.begin() + s.next_draw, tile_type_id{0});
}

// Gifts: the seat sees its own hand, the discard pile and the other hands' sizes. The deck and
// the other hands are dealt from the sorted unseen cards: lower seats first, then the deck.
void canonical_gifts(game_state& s, seat_t seat) {
  auto& st = s.ext.get<gifts::state>();
  auto unseen = bots::unseen_cards(s, seat);
  std::sort(unseen.begin(), unseen.end());
  bots::deal_unseen_cards(s, seat, unseen);
  st.script.clear();
  st.script_next = 0;
  st.scripted = false;
}

}  // namespace

information_set information_set_of(const game_state& s, seat_t seat) {
  information_set info{s, seat};
  auto& st = info.state;
  canonical_tiles(st);
  canonical_gifts(st, seat);
  // The generator decides every future draw (dice, sheep, gifts, the Take 2 leftover): reset.
  st.random = rng(0);
  // Scripted draws (tests and puzzles) are hidden like the generator: dropped.
  auto& sheep = st.ext.get<hills_and_sheep::state>();
  sheep.script.clear();
  sheep.script_next = 0;
  sheep.scripted = false;
  auto& easter = st.ext.get<easter::state>();
  easter.script.clear();
  easter.script_next = 0;
  easter.scripted = false;
  easter.trial = easter.trial_short = false;
  return info;
}

}  // namespace carcassonne
