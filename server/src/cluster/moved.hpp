// The answers of a cluster's door (docs/protocol.md §22): a request for a room another instance
// holds, or a create_room placed on another instance, is answered `moved` with that instance's
// public URL; the client reconnects there and repeats it with `"moved": true`. A repeated request
// is never bounced again, and a room whose owner is dead is `room_unavailable`, not a bounce.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "base/metrics.hpp"
#include "cluster/cluster_lobby.hpp"

namespace carcassonne::server {

// The answer to a join, spectate or resume of `room` located elsewhere or unavailable (never
// `here`): `moved`, or the error room_unavailable (counted in `m`).
nlohmann::json moved_answer(const cluster_lobby::location& where, const std::string& room,
                            const nlohmann::json& id, bool bounced, metrics& m);

// create_room's `moved` to the least loaded instance, or nothing: create here (a single
// instance, this one the least loaded, or a request already moved once).
std::optional<nlohmann::json> placed_elsewhere(const cluster_lobby& cluster,
                                               const nlohmann::json& id, bool bounced);

}  // namespace carcassonne::server
