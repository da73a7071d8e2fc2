// The seat a join or an add_bot asks for (docs/protocol.md): the one named, when the room has it
// and it is free, else the first free seat. Room-strand code; shared by room_actions.cpp (join)
// and room_bots.cpp (add_bot).
#pragma once
#include <optional>
#include <variant>

#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::server {

// A seat number, or the refusal (no_such_seat, seat_taken, room_full). `seats` are the room's
// seat slots (anything with a `taken` flag), `count` the room's number of seats.
template <class Slots>
std::variant<int, protocol::proto_error> choose_seat(const Slots& seats, int count,
                                                     std::optional<int> wanted) {
  if (wanted) {
    if (*wanted >= count) return protocol::proto_error{"no_such_seat", "the room has no such seat"};
    if (seats[*wanted].taken) return protocol::proto_error{"seat_taken", "that seat is taken"};
    return *wanted;
  }
  for (std::size_t i = 0; i < seats.size(); ++i)
    if (!seats[i].taken) return static_cast<int>(i);
  return protocol::proto_error{"room_full", "every seat is taken"};
}

}  // namespace carcassonne::server
