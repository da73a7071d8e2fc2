// Replaying a finished game move by move for a spectator (the `replay` message): the record is
// replayed through the engine up to the asked move, and the spectator's view of that moment
// is built exactly as a live spectator would have seen it.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>

#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::server {

struct replay_frame {
  nlohmann::json game;    // the spectator's game view after `move` moves
  nlohmann::json events;  // what move `move` caused (for 0: the start of the game)
  std::size_t moves = 0;  // moves in the whole game
};

// Nothing when the record does not replay (with the error), or `move` is past the end.
std::optional<replay_frame> replay_to(const nlohmann::json& record, std::size_t move,
                                      protocol::proto_error& error);

}  // namespace carcassonne::server
