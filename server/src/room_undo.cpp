// Take-backs (docs/protocol.md "Undo"): what can be undone is the engine's decision
// (undoable_steps); the room keeps the states to go back to, asks the other seats when the room's
// undo mode is `consent`, and journals an undo marker so that a restart gives the same game.
// Undone moves leave the record: its replay equals the live room.
#include <spdlog/spdlog.h>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/server/room.hpp"

namespace carcassonne::server {

namespace {

std::vector<step_taken> steps_of(const auto& points) {
  std::vector<step_taken> out;
  out.reserve(points.size());
  for (const auto& p : points) out.push_back(p.step);
  return out;
}

}  // namespace

void room::request_undo(const client_ptr& c, int seat, const json& id) {
  if (settings_.match.undo == undo_mode::off)
    return fail(c, id, "undo_off", "take-backs are off in this room");
  if (undo_request_) return fail(c, id, "undo_pending", "an undo request is already open");
  if (undoable_steps(steps_of(undo_points_), static_cast<seat_t>(seat)) == 0)
    return fail(c, id, "nothing_to_undo",
                "nothing of yours can be taken back: a draw, a score or another seat's move came "
                "since");
  std::uint8_t others = 0;
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (static_cast<int>(i) != seat && !has_forfeited(*game_, static_cast<seat_t>(i)))
      others = static_cast<std::uint8_t>(others | 1u << i);
  if (settings_.match.undo == undo_mode::free || others == 0) {
    take_back();
    send(c, protocol::reply("undone", id, {{"room", settings_.id}}));
    return broadcast({});
  }
  undo_request_ = undo_request{seat, others, 0};
  if (timer_)  // not answered in time: declined
    undo_request_->timer = timer_->call_after(settings_.match.answer_time, [this] {
      if (!undo_request_) return;
      undo_request_->timer = 0;
      end_undo_request();
      broadcast({});
    });
  send(c, protocol::reply("undo_requested", id, {{"room", settings_.id}}));
  broadcast({});
}

void room::answer_undo(const client_ptr& c, int seat, bool accept, const json& id) {
  if (!undo_request_) return fail(c, id, "no_undo_request", "no undo request is open");
  if (!(undo_request_->waiting >> seat & 1))
    return fail(c, id, "not_asked", "this undo request does not wait for your answer");
  send(c, protocol::reply("undo_answered", id, {{"room", settings_.id}, {"accept", accept}}));
  if (!accept) {  // a single refusal declines
    end_undo_request();
    return broadcast({});
  }
  undo_request_->waiting = static_cast<std::uint8_t>(undo_request_->waiting & ~(1u << seat));
  if (undo_request_->waiting == 0) {
    end_undo_request();
    take_back();
  }
  broadcast({});
}

void room::end_undo_request() {
  if (undo_request_ && undo_request_->timer && timer_) timer_->cancel(undo_request_->timer);
  undo_request_.reset();
}

// Takes back the last move: the state before it, the journal without it, a marker in the store.
void room::take_back() {
  auto point = std::move(undo_points_.back());
  undo_points_.pop_back();
  *game_ = std::move(point.before);
  journal_.pop_back();
  if (!outcomes_.empty()) outcomes_.pop_back();  // the record's outcomes follow its moves
  persist(move_write{settings_.id, stored_moves_++, json{{"type", "undo"}, {"count", 1}}.dump(),
                     "null", seq_ + 1});
  spdlog::info("room {} seat {}: took back a move", settings_.id, point.step.made.seat);
  rebuild_spectators();
  clock_changed(false);  // the same seat decides again, on its running clock
  if (clock_.enabled()) persist_meta();
}

void room::rebuild_spectators() {
  if (!spectator_game_ || spectator_moves_ <= journal_.size()) return;
  auto parsed = protocol::parse_setup(record_setup());
  if (!parsed.ok()) return;
  auto g = new_game(parsed.value->setup);
  if (!g.ok()) return;
  *spectator_game_ = std::move(g.value());
  spectator_moves_ = 0;
  advance_spectators();
}

// One stored journal entry at restore: an undo marker takes moves back, a forfeit or a move is
// applied (the states before moves are kept, as live, for later take-backs).
std::string room::replay_entry(const json& entry) {
  if (entry.value("type", json()) == "undo") {
    const int count = entry.value("count", 0);
    if (count < 1 || static_cast<std::size_t>(count) > undo_points_.size())
      return "an undo marker without the moves to take back";
    for (int i = 0; i < count; ++i) {
      *game_ = std::move(undo_points_.back().before);
      undo_points_.pop_back();
      journal_.pop_back();
    }
    return {};
  }
  if (entry.value("type", json()) == "forfeit") {
    if (auto bad = protocol::apply_json_move(*game_, entry); !bad.code.empty()) return bad.message;
    undo_points_.clear();
    journal_.push_back(entry.dump());
    return {};
  }
  auto m = protocol::move_from_json(entry, *game_);
  if (!m.ok()) return m.error.message;
  auto before = undo_snapshot();
  event_log events;
  if (auto st = apply_in_place(*game_, *m.value, &events); !st) return st.err().message;
  if (before && !reveals_or_scores(events) && !entry.value("timeout", false))
    undo_points_.push_back({std::move(*before), {*m.value, events}});
  else
    undo_points_.clear();
  journal_.push_back(entry.dump());
  return {};
}

}  // namespace carcassonne::server
