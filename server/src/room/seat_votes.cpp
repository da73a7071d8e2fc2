#include "room/seat_votes.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "room/room_events.hpp"
#include "table/game_table.hpp"

namespace carcassonne::server {

seat_votes::undo_ask undo_ask_of(const game_table& t, const std::vector<seat_slot>& seats, int seat,
                                 std::int64_t rows) {
  seat_votes::undo_ask a;
  a.steps = undoable_steps(t.journal.undo_steps, static_cast<seat_t>(seat));
  a.rows = rows;
  for (int i = 0; i < static_cast<int>(seats.size()); ++i) {
    if (i == seat || has_forfeited(*t.game, static_cast<seat_t>(i))) continue;
    auto& to = controller_at(seats, i) ? a.bots : a.persons;
    to = static_cast<std::uint8_t>(to | 1u << i);
  }
  return a;
}

seat_votes::~seat_votes() {
  if (!timer_) return;
  for (const auto h : {undo_ ? undo_->timer : 0, rematch_.timer()})
    if (h) timer_->cancel(h);
}

seat_votes::refusal seat_votes::ask_undo(int seat, const undo_ask& a,
                                         const std::function<void(const char*)>& reply) {
  const auto mode = settings_.match.undo;
  if (mode == undo_mode::off)
    return protocol::proto_error{"undo_off", "take-backs are off in this room"};
  if (undo_) return protocol::proto_error{"undo_pending", "an undo request is already open"};
  if (a.steps == 0)
    return protocol::proto_error{"nothing_to_undo",
                                 "nothing of yours can be taken back: a draw, a score or another "
                                 "seat's move came since"};
  std::uint8_t waiting = 0;  // who must answer: the persons (bots accept at once)
  if (mode == undo_mode::consent && (a.persons | a.bots)) {
    hooks_.event(room_events::seat_event("undo_requested", seat));
    for (int i = 0; i < max_seats; ++i) {
      if (a.bots >> i & 1) hooks_.event(room_events::undo_answered(i, true));
      if (a.persons >> i & 1) waiting = static_cast<std::uint8_t>(waiting | 1u << i);
    }
  }
  if (waiting == 0) {
    hooks_.take_back();
    reply("undone");
    return std::nullopt;
  }
  undo_.emplace(seat, waiting);
  // The key is built in place: "u" + std::to_string(...) gives GCC 12 a false -Wrestrict.
  std::string key(1, 'u');
  key += std::to_string(a.rows);
  for (int i = 0; i < max_seats; ++i)
    if (waiting >> i & 1) hooks_.notice(i, "undo_requested", key);
  hooks_.write_notices();
  if (timer_)  // not answered in time: declined
    undo_->timer = timer_->call_after(settings_.match.answer_time, [this] {
      if (!undo_) return;
      undo_->timer = 0;
      end_undo("no_answer");
      hooks_.changed();
    });
  reply("undo_requested");
  return std::nullopt;
}

seat_votes::refusal seat_votes::answer_undo(int seat, bool accept,
                                            const std::function<void()>& reply) {
  if (!undo_) return protocol::proto_error{"no_undo_request", "no undo request is open"};
  if (!undo_->waits_for(seat))
    return protocol::proto_error{"not_asked", "this undo request does not wait for your answer"};
  reply();
  hooks_.event(room_events::undo_answered(seat, accept));
  switch (undo_->answer(seat, accept)) {
    case undo_vote::verdict::declined:
      end_undo("refused");
      break;
    case undo_vote::verdict::granted:
      end_undo(nullptr);
      hooks_.take_back();
      break;
    case undo_vote::verdict::waiting:
      break;
  }
  return std::nullopt;
}

void seat_votes::end_undo(const char* reason) {
  if (!undo_) return;
  if (undo_->timer && timer_) timer_->cancel(undo_->timer);
  if (reason) hooks_.event(room_events::undo_declined(undo_->asker(), reason));
  undo_.reset();
}

seat_votes::refusal seat_votes::answer_rematch(int seat, bool accept, const std::string& nonce,
                                               const std::function<void()>& reply) {
  const auto& seats = seats_;
  if (!rematch_.room().empty())
    return protocol::proto_error{"rematch_done", "the rematch has been decided already"};
  if (!rematch_.offer()) {
    if (!accept) return protocol::proto_error{"no_rematch_offer", "no rematch has been offered"};
    auto& offer = rematch_.open(static_cast<int>(seats.size()));
    // Bots accept at once: the rematch of a game against bots is against the same bots.
    for (std::size_t i = 0; i < seats.size(); ++i)
      if (seats[i].bot) offer.answer(static_cast<int>(i), true);
    hooks_.event(room_events::seat_event("rematch_offered", seat));
    for (int i = 0; i < static_cast<int>(seats.size()); ++i)
      if (i != seat) hooks_.notice(i, "rematch_offered", "rematch");
    if (timer_)  // who has not answered in time declines
      offer.timer = timer_->call_after(settings_.match.answer_time, [this] {
        auto* open = rematch_.offer();
        if (!open) return;
        open->timer = 0;
        open->decline_unanswered();
        settle();
        hooks_.changed();
      });
  }
  auto& offer = *rematch_.offer();
  if (offer.answered(seat))
    return protocol::proto_error{"already_answered", "you have answered this rematch offer"};
  offer.answer(seat, accept, nonce);
  reply();
  settle();
  hooks_.write_notices();  // the offer's, unless settling wrote them
  return std::nullopt;
}

// Once every seat has answered: a new room for those who accepted (two at least), or nothing.
void seat_votes::settle() {
  const auto& seats = seats_;
  auto& offer = *rematch_.offer();
  if (!offer.settled()) return;
  if (offer.timer && timer_) timer_->cancel(offer.timer);
  offer.timer = 0;
  std::vector<seat_init> next_seats;
  std::vector<std::pair<int, std::string>> tokens;  // for the seats here
  std::uint8_t untold = 0;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (!offer.accepted(static_cast<int>(i))) continue;
    if (seats[i].bot) {
      next_seats.push_back({seats[i].name, {}, {}, {}, seats[i].bot});
      continue;
    }
    // Its place there opens with the token it holds here: a seat whose connection is gone
    // (noticed or not yet) learns of it at its next resume here, with that same token.
    if (seats[i].client && !seats[i].token.empty())
      tokens.emplace_back(static_cast<int>(i), seats[i].token);
    else
      untold = static_cast<std::uint8_t>(untold | 1u << i);
    next_seats.push_back({seats[i].name, seats[i].token_hash, offer.nonce(static_cast<int>(i)),
                          seats[i].player, std::nullopt});
  }
  if (next_seats.size() < static_cast<std::size_t>(min_seats) || !hooks_.spawn) {
    rematch_.lapse();  // too few: the offer lapses, a new one may be made
    return;
  }
  room_settings next = settings_;
  next.seats = static_cast<int>(next_seats.size());
  next.secret = settings_.rematch_secret;  // committed to since this game ended
  next.rematch_secret.clear();             // the new room draws its own
  rematch_.decide(hooks_.spawn(next, next_seats));
  if (rematch_.room().empty()) {  // the server is full: the offer lapses
    rematch_.lapse();
    return;
  }
  spdlog::info("room {}: rematch in room {}", settings_.id, rematch_.room());
  offer.set_untold(untold);
  hooks_.save_meta();  // where the seats went, for those away: before anyone is told
  for (const auto& [seat, token] : tokens)
    tell(seats[static_cast<std::size_t>(seat)].client, seat, token);
}

void seat_votes::tell(const client_ptr& c, int seat, const std::string& token) {
  hooks_.send(c, protocol::reply("rematch_ready", nullptr,
                                 {{"room", rematch_.room()},
                                  {"seat", rematch_.offer()->place_of(seat)},
                                  {"token", token}}));
}

void seat_votes::resume(const client_ptr& c, int seat, const std::string& token) {
  auto* offer = rematch_.offer();
  if (rematch_.room().empty() || !offer || !offer->accepted(seat)) return;
  if (offer->tell(seat)) hooks_.save_meta();
  tell(c, seat, token);  // its token there is the one it resumed with
}

}  // namespace carcassonne::server
