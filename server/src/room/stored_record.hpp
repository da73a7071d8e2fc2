// The record of a room as stored (docs/protocol.md "Records"), served for a room no longer in
// memory: its journal without the moves taken back (an undo marker removes them, as it did
// live) and its "fairness" section, rebuilt from the meta's secret and the seats' nonces.
#pragma once
#include <nlohmann/json.hpp>

#include "store/store.hpp"

namespace carcassonne::server {

nlohmann::json stored_record(const stored_room& stored);

}  // namespace carcassonne::server
