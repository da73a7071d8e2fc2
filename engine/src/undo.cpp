#include "carcassonne/engine/undo.hpp"

namespace carcassonne {

bool reveals_or_scores(const event_log& events) {
  for (const auto& e : events)  // what the seat did, all public and unscored, is quiet
    if (!event_is_quiet(e.type)) return true;  // draws, dice, hidden tiles, points, the end
  return false;
}

std::size_t undoable_steps(std::span<const step_taken> history, seat_t seat) {
  std::size_t n = 0;
  for (auto it = history.rbegin(); it != history.rend(); ++it, ++n)
    if (it->made.seat != seat || reveals_or_scores(it->events)) break;
  return n;
}

}  // namespace carcassonne
