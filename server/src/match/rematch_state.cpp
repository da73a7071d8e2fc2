#include "match/rematch_state.hpp"

#include <vector>

namespace carcassonne::server {

using json = nlohmann::json;

json rematch_state::view(std::size_t seats) const {
  return {{"accepted", offer_ ? offer_->accepted_seats() : json::array()},
          {"declined", offer_ ? offer_->declined_seats() : json::array()},
          // Sent with the acceptances, as room.fairness.nonces.
          {"nonces", offer_ ? offer_->nonces_sent() : json(std::vector<json>(seats))},
          {"room", room_.empty() ? json(nullptr) : json(room_)}};
}

void rematch_state::append_stored(std::string& out) const {
  if (room_.empty() || !offer_) return void(out += "null");
  out += offer_->stored(room_).dump();
}

void rematch_state::restore(const json& meta, int seats) {
  const auto it = meta.find("rematch");
  if (it == meta.end() || !it->is_object()) return;
  offer_ = rematch_offer::from_stored(*it, seats);
  room_ = it->at("room").get<std::string>();
}

}  // namespace carcassonne::server
