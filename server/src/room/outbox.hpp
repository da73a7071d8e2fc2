// The room's outbox: no frame leaves before the writes it may show are durable. Every write gets
// a number when issued; a frame sent while any write is not yet durable waits behind it, and
// frames leave in the order they were sent. What may leave goes through the hand-over
// (handover.hpp), 64 connections per step. Room-strand only.
#pragma once
#include <cstdint>
#include <vector>

#include "base/fifo.hpp"
#include "room/client_link.hpp"
#include "room/handover.hpp"

namespace carcassonne::server {

class outbox {
 public:
  explicit outbox(std::size_t step = handover::default_step) : out_(step) {}
  // The hand-over's later steps are posted through `post` (the room's strand); without it every
  // frame that may leave is handed over at once.
  void pace(handover::poster post) { out_.attach(std::move(post)); }

  // A write issued to the store: its number, for durable().
  std::uint64_t issue() { return ++issued_; }
  // Writes issued and not yet durable.
  bool writes_pending() const { return durable_ < issued_; }
  // Delivers `frame` to `c` now when nothing is waiting, else holds it behind the writes issued.
  void send(const client_ptr& c, frame_ptr frame);
  // `frame` for each of `cs` (a patch to the spectators), as send() would, a step at a time.
  void send_all(const std::vector<client_ptr>& cs, const frame_ptr& frame);
  // Write `n` (and every one before it) is durable: the frames that waited for it leave, handed
  // over per connection in their order (a move's answer and its patch go together), connections
  // in the order of their first frame. `connections`: how many may get frames (no regrowth for a
  // patch to everyone).
  void durable(std::uint64_t n, std::size_t connections);
  // The held frames, oldest first, given up (a write failed or the room moved): `each(client,
  // frame)` for each, after every frame already free has been handed over; afterwards nothing is
  // held nor pending.
  template <class F>
  void give_up(F&& each) {
    out_.flush();
    for (; !held_.empty(); held_.pop_front()) each(held_.front().client, held_.front().frame);
    durable_ = issued_;
  }
  std::size_t held() const { return held_.size(); }
  // Groups of free frames not handed over yet (handover.hpp).
  std::size_t waiting() const { return out_.waiting(); }

 private:
  bool holding() const { return !held_.empty() || durable_ < issued_; }

  struct held_frame {
    std::uint64_t needs;
    client_ptr client;
    frame_ptr frame;
  };
  std::uint64_t issued_ = 0, durable_ = 0;
  fifo<held_frame> held_;
  handover out_;
};

}  // namespace carcassonne::server
