// A room's members: its seats (seat_slot: who sits there and the connection holding the seat),
// the spectators' connections (with the link its stream is relayed through to other instances,
// and how many watch there), and the connection that created the room with the seat it took
// (start rights follow that seat). Plain data with its reads; room-strand only.
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "room/client_link.hpp"
#include "room/seat_slot.hpp"
#include "room/spectator_list.hpp"

namespace carcassonne::server {

struct room_members {
  std::vector<seat_slot> seats;
  spectator_list spectators;                 // with the relay's link, when attached
  client_ptr relay;                          // room::attach_relay(), or null
  int relayed = 0;                           // spectators elsewhere, through the relay
  std::weak_ptr<const client_link> creator;  // the connection that created the room
  int creator_seat = -1;                     // the seat it took

  // The seat held by connection `c`, or -1.
  int seat_of(const client_link* c) const {
    for (std::size_t i = 0; i < seats.size(); ++i)
      if (seats[i].client.get() == c) return static_cast<int>(i);
    return -1;
  }
  bool is_spectator(const client_link* c) const { return spectators.contains(c); }
  // Spectators connected here (the relay's link is none); shown: with those relayed.
  std::size_t local_spectators() const { return spectators.size() - (relay ? 1 : 0); }
  std::size_t shown_spectators() const { return local_spectators() + (relay ? relayed : 0); }
  bool is_creator(const client_link* c) const {
    const auto p = creator.lock();  // a dead connection's address may be reused
    return p && p.get() == c;
  }
};

}  // namespace carcassonne::server
