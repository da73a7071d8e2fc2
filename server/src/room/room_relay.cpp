// The room's side of the spectator relay (docs/scaling.md "Spectators on every instance"): one
// link that gets the public stream as a spectator here does, for cluster/spectator_relay.cpp to
// publish; and the number of spectators watching through it elsewhere.
#include "room/room.hpp"

namespace carcassonne::server {

void room::attach_relay(const client_ptr& link) {
  if (writes_.stopped() || !link) return;
  if (members_.relay) members_.spectators.remove(members_.relay.get());
  members_.relay = link;
  members_.spectators.add(link);
  publish_summary();  // its connections: the room stays in memory while relayed
  // Its start: the view as last sent (spectator delay included), then every patch after it.
  send_snapshot(link, -1, nullptr);
}

void room::detach_relay(const client_ptr& link) {
  if (!members_.relay || members_.relay != link) return;
  members_.spectators.remove(members_.relay.get());
  members_.relay = nullptr;
  publish_summary();
  if (std::exchange(members_.relayed, 0) != 0) audience_.changed();
}

void room::set_relayed_spectators(int spectators) {
  if (!members_.relay || spectators == members_.relayed) return;
  members_.relayed = spectators;
  audience_.changed();
}

}  // namespace carcassonne::server
