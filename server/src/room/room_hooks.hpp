// What a room calls back into the server for (the lobby gives them, tests their own): each may
// be empty. All run on the room's strand.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "match/seat_clocks.hpp"
#include "room/room_settings.hpp"
#include "room/seat_slot.hpp"

namespace carcassonne::server {

struct room_hooks {
  using spawner = std::function<std::string(room_settings, std::vector<seat_init>)>;
  // Creates the room of a rematch: settings (the secret is this room's rematch_secret) and seats
  // in order; returns the new room's id, or empty (none: a rematch lapses).
  spawner spawn;
  // The game ended (once; not for a game restored finished): the lobby then checks whether the
  // room can leave memory, as a bots-only game nobody watches has no connection leave to check.
  std::function<void()> finished;
  // A write of the room failed (room::storage_lost): the lobby lets go of the room and rebuilds
  // it from the store once the store answers. Runs before the room stops.
  std::function<void()> storage_lost;
  // How long a player's vacation lasts, from the players' store (docs/protocol.md §21
  // "Vacation"); none: no seat is ever held.
  seat_clocks::vacation_lookup vacation;
};

}  // namespace carcassonne::server
