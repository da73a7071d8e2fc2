// Rematch (docs/protocol.md "Rematch"): after the end a seat offers a new game with the same
// seats, expansions and options; every seat answers (no answer in time declines), with its nonce
// for the rematch's seed (docs/fairness.md "Rematches"); those who accepted are seated in a new
// room, in seat order, and its game starts at once (bots accept at once, and play it at their
// level). Each seat's place there opens with the token it holds here: the connection holding
// the seat is told in `rematch_ready`, and so is every later resume of the seat here, so that a
// seat whose connection was gone (noticed or not) is never left out of a game that waits for it.
#include <spdlog/spdlog.h>

#include "carcassonne/protocol/view_doc.hpp"
#include "room/room.hpp"
#include "room/room_events.hpp"

namespace carcassonne::server {

namespace {

// Starts the rematch's game in the name of no connection (start() wants a sender).
struct nobody final : client_link {
  void deliver(frame_ptr) override {}
  void set_room(const std::string&, bool) override {}
};

}  // namespace

void room::answer_rematch(const client_ptr& c, int seat, bool accept, const std::string& nonce,
                          const json& id) {
  if (!table_.game->finished)
    return fail(c, id, "game_not_over", "a rematch is offered once the game is over");
  if (!rematch_.room().empty())
    return fail(c, id, "rematch_done", "the rematch has been decided already");
  if (!rematch_.offer()) {
    if (!accept) return fail(c, id, "no_rematch_offer", "no rematch has been offered");
    auto& offer = rematch_.open(static_cast<int>(members_.seats.size()));
    // Bots accept at once: the rematch of a game against bots is against the same bots.
    for (std::size_t i = 0; i < members_.seats.size(); ++i)
      if (members_.seats[i].bot) offer.answer(static_cast<int>(i), true);
    room_event(room_events::seat_event("rematch_offered", seat));
    for (int i = 0; i < static_cast<int>(members_.seats.size()); ++i)
      if (i != seat) saves_.notice(saving(), i, "rematch_offered", "rematch");
    if (timer_)  // who has not answered in time declines
      offer.timer = timer_->call_after(settings_.match.answer_time, [this] {
        auto* open = rematch_.offer();
        if (!open) return;
        open->timer = 0;
        open->decline_unanswered();
        settle_rematch();
        broadcast({});
      });
  }
  auto& offer = *rematch_.offer();
  if (offer.answered(seat))
    return fail(c, id, "already_answered", "you have answered this rematch offer");
  offer.answer(seat, accept, nonce);
  send(c, protocol::reply("rematch_answered", id, {{"room", settings_.id}, {"accept", accept}}));
  settle_rematch();
  saves_.write_notices(saving());  // the offer's, unless settling wrote them
  broadcast({});
}

// Once every seat has answered: a new room for those who accepted (two at least), or nothing.
void room::settle_rematch() {
  auto& offer = *rematch_.offer();
  if (!offer.settled()) return;
  if (offer.timer && timer_) timer_->cancel(offer.timer);
  offer.timer = 0;
  std::vector<seat_init> seats;
  std::vector<std::pair<int, std::string>> tokens;  // for the seats here
  std::uint8_t untold = 0;
  for (std::size_t i = 0; i < members_.seats.size(); ++i) {
    if (!offer.accepted(static_cast<int>(i))) continue;
    if (members_.seats[i].bot) {
      seats.push_back({members_.seats[i].name, {}, {}, {}, members_.seats[i].bot});
      continue;
    }
    // Its place there opens with the token it holds here: a seat whose connection is gone
    // (noticed or not yet) learns of it at its next resume here, with that same token.
    if (members_.seats[i].client && !members_.seats[i].token.empty())
      tokens.emplace_back(static_cast<int>(i), members_.seats[i].token);
    else
      untold = static_cast<std::uint8_t>(untold | 1u << i);
    seats.push_back({members_.seats[i].name, members_.seats[i].token_hash,
                     offer.nonce(static_cast<int>(i)), members_.seats[i].player, std::nullopt});
  }
  if (seats.size() < static_cast<std::size_t>(min_seats) || !hooks_.spawn) {
    rematch_.lapse();  // too few: the offer lapses, a new one may be made
    return;
  }
  room_settings next = settings_;
  next.seats = static_cast<int>(seats.size());
  next.secret = settings_.rematch_secret;  // committed to since this game ended
  next.rematch_secret.clear();             // the new room draws its own
  rematch_.decide(hooks_.spawn(next, seats));
  if (rematch_.room().empty()) {  // the server is full: the offer lapses
    rematch_.lapse();
    return;
  }
  spdlog::info("room {}: rematch in room {}", settings_.id, rematch_.room());
  offer.set_untold(untold);
  saves_.meta(saving());  // where the seats went, for those away: before anyone is told
  for (const auto& [seat, token] : tokens) tell_rematch(members_.seats[seat].client, seat, token);
}

void room::tell_rematch(const client_ptr& c, int seat, const std::string& token) {
  send(c, protocol::reply("rematch_ready", nullptr,
                          {{"room", rematch_.room()},
                           {"seat", rematch_.offer()->place_of(seat)},
                           {"token", token}}));
}

void room::resume_rematch(const client_ptr& c, int seat, const std::string& token) {
  auto* offer = rematch_.offer();
  if (rematch_.room().empty() || !offer || !offer->accepted(seat)) return;
  if (offer->tell(seat)) saves_.meta(saving());
  tell_rematch(c, seat, token);  // its token there is the one it resumed with
}

std::unique_ptr<room> room::rematch_room(room_settings settings,
                                         const std::vector<seat_init>& seats, metrics* m) {
  settings.seats = static_cast<int>(seats.size());
  auto r = std::make_unique<room>(std::move(settings), m, std::weak_ptr<const client_link>());
  for (std::size_t i = 0; i < seats.size(); ++i) {
    r->members_.seats[i].taken = true;
    r->members_.seats[i].name = seats[i].name;
    r->members_.seats[i].token_hash = seats[i].token_hash;
    r->members_.seats[i].nonce = seats[i].nonce;
    r->members_.seats[i].player = seats[i].player;
    r->members_.seats[i].bot = seats[i].bot;
  }
  r->members_.creator_seat = 0;
  return r;
}

void room::start_rematch() {
  auto starter = std::make_shared<nobody>();
  members_.seats[0].client = starter;  // start() checks its sender holds the creator's seat
  start(starter, nullptr);
  members_.seats[0].client = nullptr;
  note_presence();
  reset_room_part();
  publish_summary();
}

}  // namespace carcassonne::server
