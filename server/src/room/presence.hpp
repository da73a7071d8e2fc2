// Who is at the table (docs/protocol.md "Match", away_limit): a person's seat is away from the
// moment it has no connection; once every person still in play has been away for the room's
// limit, they all forfeit together, and with them the bots, as a game of bots alone is played
// only when it started as one. Plain functions over the seats; room-strand code.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "room/seat_slot.hpp"

namespace carcassonne::server {

using presence_time = room_timer::clock::time_point;

// Each seat's away_since as of `now`: cleared with a connection, set when it lost its last.
void note_presence(std::vector<seat_slot>& seats, presence_time now);
// When every person in play will have been away for `limit` (none: someone is here, nobody is
// in play, or `limit` is 0). A bot's seat is never away.
std::optional<presence_time> all_away_at(const game_state& g, const std::vector<seat_slot>& seats,
                                         std::chrono::seconds limit);
// The persons' seats in play, if every one of them is away (0: someone is here).
std::uint8_t all_away(const game_state& g, const std::vector<seat_slot>& seats);
// The seats `leaving`, and the bots in play with them when no person would be left.
std::uint8_t with_bots_if_no_person_left(const game_state& g, const std::vector<seat_slot>& seats,
                                         std::uint8_t leaving);

}  // namespace carcassonne::server
