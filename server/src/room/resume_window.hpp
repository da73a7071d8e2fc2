// A seat's last patches with their seq (docs/protocol.md §12): a resume with last_seq gets the
// ones it missed instead of a snapshot, when the window still holds every one of them. At most
// `patches` patches and `bytes` bytes are kept, none larger than `frame_max` (a larger one is a
// gap: a resume from before it needs a snapshot). Room-strand only.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "room/client_link.hpp"

namespace carcassonne::server {

class resume_window {
 public:
  static constexpr std::size_t patches = 16, bytes = 12 * 1024, frame_max = 6 * 1024;

  // The patch of `seq`, sent to the seat (or made while it was away).
  void remember(std::uint64_t seq, const frame_ptr& f);
  void clear() {
    recent_.clear();
    bytes_ = 0;
  }
  bool empty() const { return recent_.empty(); }
  // True when the window holds every patch after `last_seq` up to `now`, the room's seq: the
  // window must reach the present (a room rebuilt after a restart starts with none, and its seq
  // may equal one a client saw before while its view does not).
  bool covers(std::uint64_t last_seq, std::uint64_t now) const;
  // The patches after `last_seq`, oldest first.
  std::vector<frame_ptr> after(std::uint64_t last_seq) const;

 private:
  std::vector<std::pair<std::uint64_t, frame_ptr>> recent_;
  std::size_t bytes_ = 0;
};

}  // namespace carcassonne::server
