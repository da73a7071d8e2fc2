// Take-backs: which of the last moves a seat may undo. The engine decides, the server only keeps
// the states to go back to. Pure.
//
// A move can be taken back only by the seat that made it, within its own turn, and only while it
// showed nothing hidden and scored nothing: a move whose events include a draw (tile, sheep
// token, gift card, die), a hidden tile, a revolt, a new turn, any points or the end of the game
// is final, and so is every move before it.
#pragma once
#include <cstddef>
#include <span>

#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/moves.hpp"

namespace carcassonne {

// One applied move and the events its apply produced.
struct step_taken {
  move made;
  event_log events;
};

// Whether the events of one apply reveal hidden information or score (see above).
bool reveals_or_scores(const event_log& events);

// How many of the last steps of `history` (oldest first) `seat` may take back: the longest tail
// of steps all made by `seat`, none revealing or scoring.
std::size_t undoable_steps(std::span<const step_taken> history, seat_t seat);

}  // namespace carcassonne
