// The hidden parts of a state as pools (tiles, gift cards) and their dealing back: shared by the
// information set (dealt in sorted order) and by determinization (dealt shuffled).
#pragma once
#include <cstdint>
#include <vector>

#include "carcassonne/engine/game.hpp"

namespace carcassonne::bots {

// Every tile no seat has seen: the supply still to draw, the tiles under hills, the revolt tiles
// set aside (Peasant Revolts).
std::vector<tile_type_id> unseen_tiles(const game_state& s);
// Deals `pool` (as many tiles as unseen_tiles gave) back: the set-aside part takes the first
// revolt tiles of the pool, the tiles under hills the next ones, the supply the rest in order.
void deal_unseen_tiles(game_state& s, const std::vector<tile_type_id>& pool);

// The gift cards `seat` has not seen: the deck and the other seats' hands.
std::vector<std::uint8_t> unseen_cards(const game_state& s, seat_t seat);
// Deals `pool` back: each other seat's hand in seat order (its size kept), then the deck.
void deal_unseen_cards(game_state& s, seat_t seat, const std::vector<std::uint8_t>& pool);

}  // namespace carcassonne::bots
