#include "room/game_end.hpp"

#include <set>
#include <string>

#include "carcassonne/engine/forfeit.hpp"
#include "ratings/pools.hpp"

namespace carcassonne::server {

game_end game_end_of(const room_settings& settings, const std::vector<seat_slot>& seats,
                     const game_state& game, std::int64_t finished_ms) {
  game_end e;
  e.finished_ms = finished_ms;
  std::set<std::string> players;
  for (int i = 0; i < game.seats; ++i) {
    const auto& s = seats[static_cast<std::size_t>(i)];
    e.seats.push_back({player_of(s), s.name, game.players[i].score,
                       has_forfeited(game, static_cast<seat_t>(i)) && !s.bot});
    if (!e.seats.back().player.empty()) players.insert(e.seats.back().player);
  }
  const bool every_seat_a_player = players.size() == e.seats.size();
  if (settings.rated && !settings.secret.empty() && every_seat_a_player) {
    const auto x = settings.setup.find("expansions");
    const bool any_expansion = x != settings.setup.end() && x->is_array() && !x->empty();
    e.pool = ratings::pool_name(ratings::pool_of(game.seats, any_expansion));
  }
  return e;
}

}  // namespace carcassonne::server
