#include "carcassonne/engine/undo.hpp"

namespace carcassonne {

bool reveals_or_scores(const event_log& events) {
  for (const auto& e : events) {
    switch (e.type) {
      case event_type::tile_placed:  // what the seat did, all public and unscored
      case event_type::figure_deployed:
      case event_type::figure_returned:
      case event_type::figure_moved:
      case event_type::bunny_placed:
        continue;
      default:  // draws, dice, hidden tiles, revolts, a new turn, points, the end
        return true;
    }
  }
  return false;
}

std::size_t undoable_steps(std::span<const step_taken> history, seat_t seat) {
  std::size_t n = 0;
  for (auto it = history.rbegin(); it != history.rend(); ++it, ++n)
    if (it->made.seat != seat || reveals_or_scores(it->events)) break;
  return n;
}

}  // namespace carcassonne
