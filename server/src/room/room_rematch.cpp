// The rematch's room (docs/protocol.md "Rematch"; seat_votes.hpp settles the offer): made with
// the seats that accepted, in seat order, and its game started at once.
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
