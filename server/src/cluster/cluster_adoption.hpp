// Failover (docs/scaling.md): the rooms of dead instances adopted by live ones. Which rooms: the
// unfinished rooms of the shared PostgreSQL store that nobody leases in Redis (their owner's
// leases lapsed with its heartbeat). Each is taken with the lease script (one winner, a new
// generation), fenced in the store with that generation (older writers are refused from then
// on, and a write in flight is waited for), read from the journal and rebuilt as at start.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

#include "cluster/directory.hpp"
#include "lobby/lobby.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

// One pass, on the cluster member's thread after a heartbeat; the number of rooms adopted. It
// stops taking rooms after `budget` (the rest wait for the next pass), so that the heartbeat
// that keeps this instance's own leases is never late because of a large adoption.
std::size_t adopt_orphan_rooms(room_directory& directory, store& db, lobby& rooms,
                               std::chrono::milliseconds budget);

}  // namespace carcassonne::server
