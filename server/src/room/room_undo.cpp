// The room's side of the seats' votes (seat_votes.hpp asks and counts): its hooks, and the
// take-back itself (docs/protocol.md "Undo"): what can be undone is the engine's decision
// (undoable_steps); the room goes back by replaying its journal without the move (the engine is
// deterministic: no state is copied per move for a take-back that rarely comes), and journals an
// undo marker so that a restart gives the same game. Undone moves leave the record: its replay
// equals the live room. Each step is told to everyone by a room event (room_events.hpp).
#include <spdlog/spdlog.h>

#include <utility>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "room/room.hpp"
#include "room/room_events.hpp"

namespace carcassonne::server {

seat_votes::hooks room::vote_hooks() {
  seat_votes::hooks h;
  h.event = [this](const json& e) { room_event(e); };
  h.changed = [this] { broadcast({}); };
  h.notice = [this](int seat, const char* kind, const std::string& key) {
    saves_.notice(saving(), seat, kind, key);
  };
  h.write_notices = [this] { saves_.write_notices(saving()); };
  h.save_meta = [this] { saves_.meta(saving()); };
  h.take_back = [this] { take_back(); };
  h.spawn = [this](room_settings s, std::vector<seat_init> seats) {
    return hooks_.spawn ? hooks_.spawn(std::move(s), std::move(seats)) : std::string();
  };
  h.send = [this](const client_ptr& c, const json& m) { send(c, m); };
  return h;
}

// Takes back the last move: the journal without it, the game replayed, a marker in the store.
void room::take_back() {
  const seat_t seat = table_.journal.undo_steps.back().made.seat;
  table_.journal.undo_steps.pop_back();
  table_.journal.moves.pop_back();
  if (!table_.outcomes.empty())
    table_.outcomes.pop_back();  // the record's outcomes follow its moves
  if (auto bad = replay(table_.setup(), table_.journal.moves, *table_.game);
      !bad.empty())  // accepted once already: never expected
    spdlog::error("room {}: the journal does not replay after a take-back: {}", settings_.id, bad);
  saves_.write(saving(), move_write{settings_.id, writes_.next_row(),
                                    json{{"type", "undo"}, {"count", 1}}.dump(), "null", seq_ + 1});
  spdlog::info("room {} seat {}: took back a move", settings_.id, seat);
  room_event(room_events::seat_event("undo_done", seat));
  if (table_.delayed.ahead_of(table_.journal.moves.size()))  // spectators saw the move taken back
    if (auto g = game_at_start(table_.setup()))
      table_.delayed.take_back(*g, table_.journal.moves, table_.game->finished);
  clocks_.changed(false);  // the same seat decides again, on its running clock
  if (clocks_.enabled()) saves_.meta(saving());
}

}  // namespace carcassonne::server
