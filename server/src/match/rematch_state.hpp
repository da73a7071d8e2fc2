// A room's rematch (docs/protocol.md "Rematch"): the offer while the seats answer, the rematch's
// room once it is made, and the commitment to the rematch's secret (docs/fairness.md
// "Rematches"); what the room part shows of it and what the store keeps of it. The room settles
// the offer: it makes the new room and tells the seats.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include "match/rematch_offer.hpp"
#include "match/room_timer.hpp"

namespace carcassonne::server {

class rematch_state {
 public:
  // `commitment`: of the rematch's secret (empty: the room's randomness is not provable).
  explicit rematch_state(std::string commitment = {}) : commitment_(std::move(commitment)) {}
  const std::string& commitment() const { return commitment_; }

  // The offer the seats are answering, if any.
  rematch_offer* offer() { return offer_ ? &*offer_ : nullptr; }
  const rematch_offer* offer() const { return offer_ ? &*offer_ : nullptr; }
  rematch_offer& open(int seats) { return offer_.emplace(seats); }
  void lapse() { offer_.reset(); }  // too few accepted, or no room: a new offer may be made
  // The rematch's room, once made (empty before).
  const std::string& room() const { return room_; }
  void decide(std::string room) { room_ = std::move(room); }
  // The offer's timer, if one runs.
  room_timer::handle timer() const { return offer_ ? offer_->timer : 0; }

  // Whether the room part shows a "rematch", and that object (`seats`: the room's).
  bool shown() const { return offer_ || !room_.empty(); }
  nlohmann::json view(std::size_t seats) const;
  // The stored meta's "rematch" as JSON text (null unless the rematch's room is made), and the
  // state read back from a stored meta.
  void append_stored(std::string& out) const;
  void restore(const nlohmann::json& meta, int seats);

 private:
  std::optional<rematch_offer> offer_;
  std::string room_;
  std::string commitment_;
};

}  // namespace carcassonne::server
