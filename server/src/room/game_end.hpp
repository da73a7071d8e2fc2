// A finished game as the index of games and the ratings see it (store.hpp game_end): each seat's
// player, name, score and whether it left, and the rating pool when the game is rated. Rated
// when the room says so, its seed is the seats' (a fair room, docs/fairness.md: a seeded or
// scripted deck is the creator's choice) and every seat is a different player. A seat that left
// the game (resigned, timed out, away) loses to those who stayed (ratings/pools.hpp); a bot
// leaves only with the last person, which is not its defeat.
#pragma once
#include <cstdint>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "room/room_settings.hpp"
#include "room/seat_slot.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

game_end game_end_of(const room_settings& settings, const std::vector<seat_slot>& seats,
                     const game_state& game, std::int64_t finished_ms);

}  // namespace carcassonne::server
