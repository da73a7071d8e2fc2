// Internal: the forfeit rule's hooks into the turn (forfeit.hpp), used by game.cpp and turn.cpp.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "carcassonne/engine/game.hpp"

namespace carcassonne::detail {

using score_sheet = std::array<std::int32_t, max_seats>;
score_sheet scores_of(const game_state& s);

// The seat whose turn follows `seat`'s: the next one in seat order that has not forfeited
// (seat + 1 when none has).
seat_t next_in_play(const game_state& s, seat_t seat);

// After an apply that started from scores `before` (events from `first_event` on are its own):
// takes the decisions of forfeited seats, then puts their scores back and drops their points
// events. Nothing to do while no seat has forfeited.
void settle_forfeits(game_state& s, const score_sheet& before, event_log* events,
                     std::size_t first_event);

}  // namespace carcassonne::detail
