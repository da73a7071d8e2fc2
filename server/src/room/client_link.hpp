// What a room needs from a connection, and the frames it hands over: the room's only view of the
// network (transport/websocket_session.cpp implements it; tests have fakes).
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace carcassonne::server {

using frame_ptr = std::shared_ptr<const std::string>;

// Both calls are thread-safe and never block.
class client_link {
 public:
  virtual ~client_link() = default;
  // Queues one text frame (a slow client may be dropped instead; the room goes on).
  virtual void deliver(frame_ptr frame) = 0;
  // Queues several frames in order: one hand-over to the connection's thread for all of them.
  virtual void deliver_all(std::vector<frame_ptr> frames) {
    for (auto& f : frames) deliver(std::move(f));
  }
  // The connection entered (member) or left (!member) the room. Calls from different rooms
  // may arrive in any order: leaving only clears the connection's room if it is that room.
  virtual void set_room(const std::string& room_id, bool member) = 0;
};
using client_ptr = std::shared_ptr<client_link>;

}  // namespace carcassonne::server
