// A rematch offer after the end (docs/protocol.md "Rematch"): each seat accepts (with its nonce for
// the rematch's seed, docs/fairness.md "Rematches") or declines, once; no answer in time declines.
// Once the rematch's room is made, the seats that were away have still to be told of it. The room
// makes the rematch's room and keeps the offer's timer. Seats are 0..7.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "match/room_timer.hpp"

namespace carcassonne::server {

class rematch_offer {
 public:
  explicit rematch_offer(int seats) : seats_(seats), nonces_(static_cast<std::size_t>(seats)) {}

  bool answered(int seat) const { return (accepted_ | declined_) >> seat & 1; }
  bool accepted(int seat) const { return accepted_ >> seat & 1; }
  // A seat's answer (once: answered() tells); `nonce` kept with an acceptance.
  void answer(int seat, bool accept, std::string nonce = {});
  // Every seat has answered.
  bool settled() const { return (accepted_ | declined_) == all(); }
  // Time is up: who has not answered declines.
  void decline_unanswered() { declined_ = static_cast<std::uint8_t>(all() & ~accepted_); }
  const std::string& nonce(int seat) const { return nonces_[static_cast<std::size_t>(seat)]; }
  // A seat's place in the rematch: the accepting seats, in order.
  int place_of(int seat) const;

  // The rematch's room is made: `away` (bit per seat) are still to be told of it.
  void set_untold(std::uint8_t away) { untold_ = away; }
  // True once for a seat that was still to be told.
  bool tell(int seat);

  // For the room's view (room.rematch): seats that accepted and declined, the nonces sent.
  nlohmann::json accepted_seats() const { return seat_list(accepted_); }
  nlohmann::json declined_seats() const { return seat_list(declined_); }
  nlohmann::json nonces_sent() const;
  // Stored with the room (its meta's "rematch", with the rematch's room id) and read back.
  nlohmann::json stored(const std::string& room) const;
  static rematch_offer from_stored(const nlohmann::json& j, int seats);

  room_timer::handle timer = 0;  // who has not answered in time declines

 private:
  std::uint8_t all() const { return static_cast<std::uint8_t>((1u << seats_) - 1); }
  nlohmann::json seat_list(std::uint8_t bits) const;
  int seats_;
  std::uint8_t accepted_ = 0, declined_ = 0, untold_ = 0;
  std::vector<std::string> nonces_;  // per seat, sent with the acceptance; "" for none
};

}  // namespace carcassonne::server
