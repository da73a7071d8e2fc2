#include "match/rematch_offer.hpp"

#include <bit>

namespace carcassonne::server {

using json = nlohmann::json;

void rematch_offer::answer(int seat, bool accept, std::string nonce) {
  (accept ? accepted_ : declined_) |= static_cast<std::uint8_t>(1u << seat);
  if (accept) nonces_[static_cast<std::size_t>(seat)] = std::move(nonce);
}

int rematch_offer::place_of(int seat) const {
  return std::popcount(static_cast<unsigned>(accepted_) & ((1u << seat) - 1));
}

bool rematch_offer::tell(int seat) {
  if (!(untold_ >> seat & 1)) return false;
  untold_ = static_cast<std::uint8_t>(untold_ & ~(1u << seat));
  return true;
}

json rematch_offer::seat_list(std::uint8_t bits) const {
  json out = json::array();
  for (std::size_t i = 0; i < static_cast<std::size_t>(seats_); ++i)
    if (bits >> i & 1) out.push_back(i);
  return out;
}

json rematch_offer::nonces_sent() const {
  json nonces = json::array();
  for (std::size_t i = 0; i < static_cast<std::size_t>(seats_); ++i) {
    const bool sent = accepted_ >> i & 1 && !nonces_[i].empty();
    nonces.push_back(sent ? json(nonces_[i]) : json(nullptr));
  }
  return nonces;
}

json rematch_offer::stored(const std::string& room) const {
  return json{{"room", room},
              {"accepted", seat_list(accepted_)},
              {"declined", seat_list(declined_)},
              {"untold", seat_list(untold_)},
              {"nonces", nonces_}};
}

rematch_offer rematch_offer::from_stored(const json& j, int seats) {
  const auto bits_of = [](const json& list) {
    unsigned bits = 0;
    for (const auto& i : list) bits |= 1u << i.get<int>();
    return static_cast<std::uint8_t>(bits);
  };
  rematch_offer o(seats);
  o.accepted_ = bits_of(j.at("accepted"));
  o.declined_ = bits_of(j.at("declined"));
  o.untold_ = bits_of(j.at("untold"));
  o.nonces_ = j.at("nonces").get<std::vector<std::string>>();
  o.nonces_.resize(static_cast<std::size_t>(seats));
  return o;
}

}  // namespace carcassonne::server
