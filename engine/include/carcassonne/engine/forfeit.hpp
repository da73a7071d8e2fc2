// A seat leaving a game before its end (resign, a clock run out): the engine's rule for it, so that
// a record holding a forfeit replays to the same state anywhere. Pure, like the rest of the engine.
//
// Rule decisions (the rules are silent on players leaving; docs/protocol.md "Forfeit"):
// - A forfeited seat's figures stay on the board and keep counting for majorities (they occupy
//   what they occupy, as on a real table), but the seat never scores again: its score is frozen
//   at the moment it forfeits (points, losses, eggs' points and final scoring alike).
// - Its turns are skipped. A decision it must still take (the current one when it forfeits in
//   its own turn, or its go in another seat's Easter bunny phase) is taken for it at once: `pass`
//   when the decision allows it, otherwise the first legal move in the engine's order.
// - When at most one seat is left in play the game ends at the end of the current turn, with the
//   usual final scoring (forfeited seats are listed, not scored).
#pragma once
#include <cstdint>

#include "carcassonne/engine/game.hpp"

namespace carcassonne {

inline bool has_forfeited(const game_state& s, seat_t seat) {
  return (s.forfeited >> seat & 1) != 0;
}
// Seats that have not forfeited.
int seats_in_play(const game_state& s);

// Forfeits every seat of `seats` (bit per seat) at once, then takes their pending decisions and
// runs the automatic steps up to the next decision of a seat in play, or to the end. Errors:
// game_over, already_forfeited (a seat of the set has forfeited or is not in the game); s is
// untouched on error.
status forfeit(game_state& s, std::uint8_t seats, event_log* events = nullptr);

}  // namespace carcassonne
