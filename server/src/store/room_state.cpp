#include "store/room_state.hpp"

namespace carcassonne::server {

std::string_view to_string(room_state s) {
  switch (s) {
    case room_state::waiting:
      return "waiting";
    case room_state::playing:
      return "playing";
    case room_state::finished:
      return "finished";
  }
  return "waiting";  // not reached: every state is named above
}

std::optional<room_state> room_state_from_string(std::string_view word) {
  for (const auto s : {room_state::waiting, room_state::playing, room_state::finished})
    if (to_string(s) == word) return s;
  return std::nullopt;
}

}  // namespace carcassonne::server
