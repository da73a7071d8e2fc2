// A room's members without a room (room/room_members.hpp): who holds which seat, who watches,
// how many watch here and through the relay, and who created the room while its connection lives.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "fake_client.hpp"
#include "room/room_members.hpp"

namespace {

using namespace carcassonne::server;
using carcassonne::testing::fake_client;

}  // namespace

TEST_CASE("room_members: seats, spectators here and through the relay, the creator") {
  auto ann = std::make_shared<fake_client>();
  auto watcher = std::make_shared<fake_client>();
  auto link = std::make_shared<fake_client>();
  auto stranger = std::make_shared<fake_client>();
  room_members m{.seats = std::vector<seat_slot>(3), .creator = ann};
  m.seats[1].client = ann;
  m.spectators.add(watcher);
  CHECK(m.seat_of(ann.get()) == 1);
  CHECK(m.seat_of(watcher.get()) == -1);
  CHECK(m.is_spectator(watcher.get()));
  CHECK_FALSE(m.is_spectator(ann.get()));
  CHECK(m.local_spectators() == 1);
  CHECK(m.shown_spectators() == 1);

  m.spectators.add(link);  // the relay's link is a spectator of the room, counted as none
  m.relay = link;
  m.relayed = 40;
  CHECK(m.local_spectators() == 1);
  CHECK(m.shown_spectators() == 41);

  CHECK(m.is_creator(ann.get()));
  CHECK_FALSE(m.is_creator(stranger.get()));
  const client_link* gone = ann.get();
  m.seats[1].client.reset();
  ann.reset();  // the creating connection closed: its address proves nothing any more
  CHECK_FALSE(m.is_creator(gone));
}
