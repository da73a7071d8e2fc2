// Where a room is in its life: waiting for players, playing, finished. The words ("waiting",
// "playing", "finished") are only at the edges: the protocol's room listings and the store's
// rooms table. Plain functions, any thread.
#pragma once
#include <optional>
#include <string_view>

namespace carcassonne::server {

enum class room_state { waiting, playing, finished };

// The word the protocol and the store use.
std::string_view to_string(room_state s);
// The state a word names; nullopt for any other text.
std::optional<room_state> room_state_from_string(std::string_view word);

}  // namespace carcassonne::server
