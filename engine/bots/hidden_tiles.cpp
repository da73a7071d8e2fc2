#include "hidden_tiles.hpp"

#include "gifts/id.hpp"
#include "peasant_revolts/id.hpp"
#include "peasant_revolts/peasant_revolts.hpp"

namespace carcassonne::bots {

std::vector<tile_type_id> unseen_tiles(const game_state& s) {
  std::vector<tile_type_id> pool(s.supply.begin() + s.next_draw, s.supply.end());
  pool.insert(pool.end(), s.out_of_play.begin(), s.out_of_play.end());
  const auto& aside = s.ext.get<peasant_revolts::state>().set_aside;
  pool.insert(pool.end(), aside.begin(), aside.end());
  return pool;
}

void deal_unseen_tiles(game_state& s, const std::vector<tile_type_id>& pool) {
  auto& aside = s.ext.get<peasant_revolts::state>().set_aside;
  std::vector<bool> used(pool.size(), false);
  std::size_t taken = 0;
  for (std::size_t i = 0; i < pool.size() && taken < aside.size(); ++i)
    if (peasant_revolts::is_revolt_tile(pool[i])) {
      aside[taken++] = pool[i];
      used[i] = true;
    }
  std::size_t i = 0;
  auto next = [&] {
    while (used[i]) ++i;
    return pool[i++];
  };
  for (auto& t : s.out_of_play) t = next();
  for (auto it = s.supply.begin() + s.next_draw; it != s.supply.end(); ++it) *it = next();
}

std::vector<std::uint8_t> unseen_cards(const game_state& s, seat_t seat) {
  const auto& st = s.ext.get<gifts::state>();
  std::vector<std::uint8_t> pool(st.deck.begin(), st.deck.end());
  for (int other = 0; other < max_seats; ++other)
    if (other != seat) pool.insert(pool.end(), st.hands[other].begin(), st.hands[other].end());
  return pool;
}

void deal_unseen_cards(game_state& s, seat_t seat, const std::vector<std::uint8_t>& pool) {
  auto& st = s.ext.get<gifts::state>();
  std::size_t i = 0;
  for (int other = 0; other < max_seats; ++other)
    if (other != seat)
      for (auto& c : st.hands[other]) c = pool[i++];
  for (auto& c : st.deck) c = pool[i++];
}

}  // namespace carcassonne::bots
