// A room's own events (docs/protocol.md §8 "Room events"): what a change did that is no move of
// the game, a take-back, a timeout, a forfeit, a rematch offer. A patch sends them before the
// engine's events of the same change. Plain functions, any thread.
#pragma once
#include <nlohmann/json.hpp>

namespace carcassonne::server::room_events {

using json = nlohmann::json;

inline json seat_event(const char* type, int seat) {
  return {{"type", type}, {"seat", seat}};
}
inline json undo_answered(int seat, bool accept) {
  return {{"type", "undo_answered"}, {"seat", seat}, {"accept", accept}};
}
// `reason`: refused, no_answer, moved, forfeit (docs/protocol.md §8).
inline json undo_declined(int asker, const char* reason) {
  return {{"type", "undo_declined"}, {"seat", asker}, {"reason", reason}};
}

// The events a journal entry brings besides the engine's, live and in `history` alike:
// `timed_out` for an entry made on timeout, then one `forfeited` per seat of a forfeit.
inline json of_entry(const json& entry) {
  json out = json::array();
  const int seat = entry.value("seat", -1);
  if (entry.value("timeout", false)) out.push_back(seat_event("timed_out", seat));
  if (entry.value("type", json()) != "forfeit") return out;
  const json seats = entry.contains("seats") ? entry["seats"] : json::array({seat});
  for (const auto& s : seats)
    out.push_back({{"type", "forfeited"}, {"seat", s}, {"reason", entry.value("reason", "")}});
  return out;
}

}  // namespace carcassonne::server::room_events
