// The room's outbox: no frame leaves before the writes it may show are durable. Every write gets
// a number when issued; a frame sent while any write is not yet durable waits behind it, and
// frames leave in the order they were sent. Room-strand only.
#pragma once
#include <cstdint>

#include "base/fifo.hpp"
#include "room/client_link.hpp"

namespace carcassonne::server {

class outbox {
 public:
  // A write issued to the store: its number, for durable().
  std::uint64_t issue() { return ++issued_; }
  // Writes issued and not yet durable.
  bool writes_pending() const { return durable_ < issued_; }
  // Delivers `frame` to `c` now when nothing is waiting, else holds it behind the writes issued.
  void send(const client_ptr& c, frame_ptr frame);
  // Write `n` (and every one before it) is durable: the frames that waited for it leave, handed
  // over per connection in their order (a move's answer and its patch go together).
  // `connections`: how many may get frames (no regrowth for a patch to everyone).
  void durable(std::uint64_t n, std::size_t connections);
  // The held frames, oldest first, given up (a write failed or the room moved): `each(client,
  // frame)` for each; afterwards nothing is held nor pending.
  template <class F>
  void give_up(F&& each) {
    for (; !held_.empty(); held_.pop_front()) each(held_.front().client, held_.front().frame);
    durable_ = issued_;
  }
  std::size_t held() const { return held_.size(); }

 private:
  struct held_frame {
    std::uint64_t needs;
    client_ptr client;
    frame_ptr frame;
  };
  std::uint64_t issued_ = 0, durable_ = 0;
  fifo<held_frame> held_;
};

}  // namespace carcassonne::server
