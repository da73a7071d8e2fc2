// Take-backs (docs/protocol.md "Undo"): what can be undone is the engine's decision
// (undoable_steps); the room asks the other seats when the room's undo mode is `consent`, goes
// back by replaying its journal without the move (the engine is deterministic: no state is
// copied per move for a take-back that rarely comes), and journals an undo marker so that a
// restart gives the same game. Undone moves leave the record: its replay equals the live room.
// Each step is told to everyone by a room event (room_events.hpp). A seat a bot holds or plays
// for (takeover) accepts at once: a bot never keeps a person from correcting a slip.
#include <spdlog/spdlog.h>

#include <utility>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "room/room.hpp"
#include "room/room_events.hpp"

namespace carcassonne::server {

void room::request_undo(const client_ptr& c, int seat, const json& id) {
  if (settings_.match.undo == undo_mode::off)
    return fail(c, id, "undo_off", "take-backs are off in this room");
  if (undo_request_) return fail(c, id, "undo_pending", "an undo request is already open");
  if (undoable_steps(table_.journal.undo_steps, static_cast<seat_t>(seat)) == 0)
    return fail(c, id, "nothing_to_undo",
                "nothing of yours can be taken back: a draw, a score or another seat's move came "
                "since");
  std::uint8_t others = 0;  // who must answer: the other seats in play, but bots (they accept)
  bool asked = false;
  for (std::size_t i = 0; settings_.match.undo == undo_mode::consent && i < members_.seats.size();
       ++i) {
    const int other = static_cast<int>(i);
    if (other == seat || has_forfeited(*table_.game, static_cast<seat_t>(other))) continue;
    if (!std::exchange(asked, true)) room_event(room_events::seat_event("undo_requested", seat));
    if (controller_at(members_.seats, other))
      room_event(room_events::undo_answered(other, true));
    else
      others = static_cast<std::uint8_t>(others | 1u << i);
  }
  if (others == 0) {
    take_back();
    send(c, protocol::reply("undone", id, {{"room", settings_.id}}));
    return broadcast({});
  }
  undo_request_.emplace(seat, others);
  // The key is built in place: "u" + std::to_string(...) gives GCC 12 a false -Wrestrict.
  std::string key(1, 'u');
  key += std::to_string(writes_.rows());
  for (int i = 0; i < static_cast<int>(members_.seats.size()); ++i)
    if (others >> i & 1) saves_.notice(saving(), i, "undo_requested", key);
  saves_.write_notices(saving());
  if (timer_)  // not answered in time: declined
    undo_request_->timer = timer_->call_after(settings_.match.answer_time, [this] {
      if (!undo_request_) return;
      undo_request_->timer = 0;
      end_undo_request("no_answer");
      broadcast({});
    });
  send(c, protocol::reply("undo_requested", id, {{"room", settings_.id}}));
  broadcast({});
}

void room::answer_undo(const client_ptr& c, int seat, bool accept, const json& id) {
  if (!undo_request_) return fail(c, id, "no_undo_request", "no undo request is open");
  if (!undo_request_->waits_for(seat))
    return fail(c, id, "not_asked", "this undo request does not wait for your answer");
  send(c, protocol::reply("undo_answered", id, {{"room", settings_.id}, {"accept", accept}}));
  room_event(room_events::undo_answered(seat, accept));
  switch (undo_request_->answer(seat, accept)) {
    case undo_vote::verdict::declined:
      end_undo_request("refused");
      break;
    case undo_vote::verdict::granted:
      end_undo_request(nullptr);
      take_back();
      break;
    case undo_vote::verdict::waiting:
      break;
  }
  broadcast({});
}

void room::end_undo_request(const char* reason) {
  if (!undo_request_) return;
  if (undo_request_->timer && timer_) timer_->cancel(undo_request_->timer);
  if (reason) room_event(room_events::undo_declined(undo_request_->asker(), reason));
  undo_request_.reset();
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
