#include "determinize.hpp"

#include <span>

#include "gifts/id.hpp"
#include "hidden_tiles.hpp"

namespace carcassonne::bots {

game_state determinize(const information_set& info, rng& r) {
  game_state s = info.state;
  auto tiles_pool = unseen_tiles(s);
  r.shuffle(std::span<tile_type_id>(tiles_pool));
  deal_unseen_tiles(s, tiles_pool);
  if (s.expansions.has(gifts::id)) {
    auto cards = unseen_cards(s, info.seat);
    r.shuffle(std::span<std::uint8_t>(cards));
    deal_unseen_cards(s, info.seat, cards);
  }
  s.random = rng(r.next());
  return s;
}

}  // namespace carcassonne::bots
