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
  if (undoable_steps(undo_steps_, static_cast<seat_t>(seat)) == 0)
    return fail(c, id, "nothing_to_undo",
                "nothing of yours can be taken back: a draw, a score or another seat's move came "
                "since");
  std::uint8_t others = 0;  // who must answer: the other seats in play, but bots (they accept)
  bool asked = false;
  for (std::size_t i = 0; settings_.match.undo == undo_mode::consent && i < seats_.size(); ++i) {
    const int other = static_cast<int>(i);
    if (other == seat || has_forfeited(*game_, static_cast<seat_t>(other))) continue;
    if (!std::exchange(asked, true)) room_event(room_events::seat_event("undo_requested", seat));
    if (controller(other))
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
  const seat_t seat = undo_steps_.back().made.seat;
  undo_steps_.pop_back();
  journal_.pop_back();
  if (!outcomes_.empty()) outcomes_.pop_back();   // the record's outcomes follow its moves
  if (auto bad = replay_journal(); !bad.empty())  // accepted once already: never expected
    spdlog::error("room {}: the journal does not replay after a take-back: {}", settings_.id, bad);
  persist(move_write{settings_.id, stored_moves_++, json{{"type", "undo"}, {"count", 1}}.dump(),
                     "null", seq_ + 1});
  spdlog::info("room {} seat {}: took back a move", settings_.id, seat);
  room_event(room_events::seat_event("undo_done", seat));
  rebuild_spectators();
  clock_changed(false);  // the same seat decides again, on its running clock
  if (clock_.enabled()) persist_meta();
}

// The game as it was at the start, from the record's setup (what a replay starts from); none
// when the setup does not start a game (never, for a room that started).
static std::optional<game_state> start_of(const json& record_setup) {
  auto parsed = protocol::parse_setup(record_setup);
  if (!parsed.ok()) return std::nullopt;
  auto g = new_game(parsed.value->setup);
  if (!g.ok()) return std::nullopt;
  return std::move(g.value());
}

void room::rebuild_spectators() {
  if (!spectator_game_ || spectator_moves_ <= journal_.size()) return;
  auto g = start_of(record_setup());
  if (!g) return;
  *spectator_game_ = std::move(*g);
  spectator_moves_ = 0;
  advance_spectators();
}

std::string room::replay_journal() {
  auto g = start_of(record_setup());
  if (!g) return "the record's setup does not start a game";
  for (std::size_t i = 0; i < journal_.size(); ++i)
    if (auto bad = protocol::apply_json_move(*g, protocol::move_json_from_text(journal_[i]));
        !bad.code.empty())
      return "move " + std::to_string(i) + ": " + bad.message;
  *game_ = std::move(*g);
  return {};
}

// One stored journal entry at restore: an undo marker takes moves back (the game replayed
// without them), a forfeit or a move is applied (and counted for later take-backs, as live).
std::string room::replay_entry(const json& entry) {
  if (entry.value("type", json()) == "undo") {
    const int count = entry.value("count", 0);
    if (count < 1 || static_cast<std::size_t>(count) > undo_steps_.size())
      return "an undo marker without the moves to take back";
    for (int i = 0; i < count; ++i) {
      undo_steps_.pop_back();
      journal_.pop_back();
    }
    return replay_journal();
  }
  if (entry.value("type", json()) == "forfeit") {
    if (auto bad = protocol::apply_json_move(*game_, entry); !bad.code.empty()) return bad.message;
    undo_steps_.clear();
    journal_.push_back(entry.dump());
    return {};
  }
  auto m = protocol::move_from_json(entry, *game_);
  if (!m.ok()) return m.error.message;
  event_log events;
  if (auto st = apply_in_place(*game_, *m.value, &events); !st) return st.err().message;
  if (settings_.match.undo != undo_mode::off && !reveals_or_scores(events) &&
      !entry.value("timeout", false))
    undo_steps_.push_back({*m.value, events});
  else
    undo_steps_.clear();
  journal_.push_back(entry.dump());
  return {};
}

}  // namespace carcassonne::server
