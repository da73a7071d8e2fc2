// Rematch (docs/protocol.md "Rematch"): after the end a seat offers a new game with the same
// seats, expansions and options; every seat answers (no answer in time declines); those who
// accepted are seated in a new room, in seat order, and its game starts at once. Each gets its
// seat and token in a `rematch_ready` message and resumes there.
#include <spdlog/spdlog.h>

#include "carcassonne/server/room.hpp"
#include "random_ids.hpp"
#include "room_events.hpp"
#include "sha256.hpp"

namespace carcassonne::server {

namespace {

// Starts the rematch's game in the name of no connection (start() wants a sender).
struct nobody final : client_link {
  void deliver(frame_ptr) override {}
  void set_room(const std::string&, bool) override {}
};

}  // namespace

void room::answer_rematch(const client_ptr& c, int seat, bool accept, const json& id) {
  if (!game_->finished)
    return fail(c, id, "game_not_over", "a rematch is offered once the game is over");
  if (!rematch_room_.empty())
    return fail(c, id, "rematch_done", "the rematch has been decided already");
  if (!rematch_) {
    if (!accept) return fail(c, id, "no_rematch_offer", "no rematch has been offered");
    rematch_ = rematch_offer{};
    room_event(room_events::seat_event("rematch_offered", seat));
    if (timer_)  // who has not answered in time declines
      rematch_->timer = timer_->call_after(settings_.match.answer_time, [this] {
        if (!rematch_) return;
        rematch_->timer = 0;
        const unsigned all = (1u << seats_.size()) - 1;
        rematch_->declined = static_cast<std::uint8_t>(all & ~rematch_->accepted);
        settle_rematch();
        broadcast({});
      });
  }
  const unsigned bit = 1u << seat;
  if ((rematch_->accepted | rematch_->declined) & bit)
    return fail(c, id, "already_answered", "you have answered this rematch offer");
  (accept ? rematch_->accepted : rematch_->declined) |= static_cast<std::uint8_t>(bit);
  send(c, protocol::reply("rematch_answered", id, {{"room", settings_.id}, {"accept", accept}}));
  settle_rematch();
  broadcast({});
}

// Once every seat has answered: a new room for those who accepted (two at least), or nothing.
void room::settle_rematch() {
  const unsigned all = (1u << seats_.size()) - 1;
  if ((rematch_->accepted | rematch_->declined) != all) return;
  if (rematch_->timer && timer_) timer_->cancel(rematch_->timer);
  std::vector<seat_init> seats;
  std::vector<std::pair<int, std::string>> tokens;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (!(rematch_->accepted >> i & 1)) continue;
    tokens.emplace_back(static_cast<int>(i), random_hex(32));
    seats.emplace_back(seats_[i].name, sha256_hex(tokens.back().second));
  }
  if (seats.size() < static_cast<std::size_t>(min_seats) || !spawn_) {
    rematch_.reset();  // too few: the offer lapses, a new one may be made
    return;
  }
  room_settings next = settings_;
  next.seats = static_cast<int>(seats.size());
  rematch_room_ = spawn_(next, seats);
  if (rematch_room_.empty()) {  // the server is full: the offer lapses
    rematch_.reset();
    return;
  }
  spdlog::info("room {}: rematch in room {}", settings_.id, rematch_room_);
  for (std::size_t n = 0; n < tokens.size(); ++n) {
    const auto& [seat, token] = tokens[n];
    if (seats_[seat].client)
      send(seats_[seat].client,
           protocol::reply("rematch_ready", nullptr,
                           {{"room", rematch_room_}, {"seat", n}, {"token", token}}));
  }
}

std::unique_ptr<room> room::rematch_room(room_settings settings,
                                         const std::vector<seat_init>& seats, metrics* m) {
  settings.seats = static_cast<int>(seats.size());
  auto r = std::make_unique<room>(std::move(settings), m, std::weak_ptr<const client_link>());
  for (std::size_t i = 0; i < seats.size(); ++i) {
    r->seats_[i].taken = true;
    r->seats_[i].name = seats[i].first;
    r->seats_[i].token_hash = seats[i].second;
  }
  r->creator_seat_ = 0;
  return r;
}

void room::start_rematch() {
  auto starter = std::make_shared<nobody>();
  seats_[0].client = starter;  // start() checks its sender holds the creator's seat
  start(starter, nullptr);
  seats_[0].client = nullptr;
  note_presence();
  reset_room_part();
  publish_summary();
}

}  // namespace carcassonne::server
