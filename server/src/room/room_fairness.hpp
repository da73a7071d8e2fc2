// A room's part in provably fair randomness (docs/fairness.md): the room part's "fairness" (the
// commitment and nonces, the rematch's commitment once the game is over, the secret revealed at
// the end), the seed a start derives and the parts of the record. Plain functions; the room's
// `nonce` message is in room_fairness.cpp with them.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "room/room_settings.hpp"
#include "room/seat_slot.hpp"
#include "table/game_table.hpp"
#include "table/record_parts.hpp"

namespace carcassonne::server {

// The room part's "fairness" as JSON text, appended to `out`. `over`: the game has ended (the
// secret shows, and `rematch_commitment` if not empty).
void append_fairness_part(std::string& out, const std::string& commitment,
                          const std::vector<seat_slot>& seats, std::string_view rematch_commitment,
                          const std::string& secret, bool over);

// The game's seed: the settings' seed, or derived from the secret and the seats' nonces.
std::string game_seed(const room_settings& settings, const std::vector<seat_slot>& seats);

// What the room's record is made of (record_parts.hpp): its fairness section from the secret and
// the seats' nonces.
record_parts record_parts_of(const game_table& t, const room_settings& settings,
                             const std::vector<seat_slot>& seats);

}  // namespace carcassonne::server
