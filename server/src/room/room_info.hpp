// The room part of every view (docs/protocol.md "The view document", `room`), written as text:
// compared on every broadcast and diffed as text when it changed (room_part). Its keys are in
// sorted order, as nlohmann dumps an object's (the parts dumped by nlohmann and the text diff
// rely on it). Plain functions over the parts a room hands them.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carcassonne/protocol/messages.hpp"
#include "match/rematch_state.hpp"
#include "match/seat_clocks.hpp"
#include "match/undo_vote.hpp"
#include "room/room_part.hpp"
#include "room/room_settings.hpp"
#include "room/seat_slot.hpp"
#include "store/room_state.hpp"
#include "table/game_table.hpp"

namespace carcassonne::server {

// Where a room is in its life: waiting before the start, then playing, then finished.
inline room_state state_of(const game_table& t) {
  return !t.game ? room_state::waiting : t.finished() ? room_state::finished : room_state::playing;
}

// When a room part written now reads its clock: none when it shows no clock (no clock, no game
// yet, or no timer).
inline std::optional<room_clock::time_point> clock_read_now(const seat_clocks& clocks,
                                                            const game_table& t,
                                                            const room_timer_ptr& timer) {
  if (clocks.enabled() && t.game && timer) return timer->now();
  return std::nullopt;
}

// The parts of a room its room part is written from.
struct room_info_source {
  const room_settings& settings;
  const room_part& part;  // its keys that never change
  const std::vector<seat_slot>& seats;
  const protocol::room_bot_settings& bots;
  const seat_clocks& clocks;
  std::optional<room_clock::time_point> clock_read;  // clock_read_now: none, no "clock"
  std::string_view fairness;                         // its JSON text; "" none
  const rematch_state& rematch;
  std::size_t spectators;
  room_state state;
  const undo_vote* undo_request;  // the open take-back request, if any
};

// The room part's text; `clock` (if given) gets where it holds the clock.
std::string room_info_text(const room_info_source& s, room_part::clock_span* clock = nullptr);

}  // namespace carcassonne::server
