// The hand-over of a room's frames to its connections, in bounded steps. A patch to thousands of
// spectators leaves 64 connections at a time; the rest is continued by a step posted
// on the room's strand, so that the players' reads and the room's other work run in between
// instead of waiting behind one handler per spectator. Owns the frames that are ready to leave
// but not handed over yet. Per connection they keep their order: a frame for a connection whose
// earlier frames still wait goes behind them; a connection with nothing waiting gets its frames at
// once (the players' answers and patches, which come first in a batch). Room-strand only.
#pragma once
#include <cstddef>
#include <functional>
#include <unordered_map>
#include <vector>

#include "base/fifo.hpp"
#include "room/client_link.hpp"

namespace carcassonne::server {

class handover {
 public:
  using poster = std::function<void(std::function<void()>)>;
  // Connections handed their frames per step: the I/O threads' work a step queues (a write per
  // connection, about 10 µs each) is what a player's read may wait behind, under a millisecond.
  static constexpr std::size_t default_step = 64;

  explicit handover(std::size_t step = default_step) : step_(step < 1 ? 1 : step) {}
  // The steps after the first are posted through `post` (onto the room's strand). Without it,
  // every frame is handed over at once.
  void attach(poster post) { post_ = std::move(post); }

  // One connection's frames, in order: handed over in one call (client_link::deliver_all).
  struct group {
    client_ptr client;
    std::vector<frame_ptr> frames;
  };
  // A frame for `c`: now, unless earlier frames of `c` wait.
  void send(const client_ptr& c, frame_ptr frame);
  // `groups`, in their order: at most a step's worth of connections now (those with nothing
  // waiting), the others queued and handed over by the posted steps.
  void send_all(std::vector<group> groups);
  // Everything waiting is handed over now (the room stops: nothing may come after its last word).
  void flush();

  // Groups of frames waiting, and whether `c` has any among them.
  std::size_t waiting() const { return queue_.size(); }
  bool waits(const client_link* c) const { return !waiting_.empty() && waiting_.count(c) != 0; }

 private:
  void queue(group g);
  void hand_over_front();  // the oldest waiting group leaves
  void step();             // a posted step: up to step_ waiting groups leave
  static void hand_over(group& g);

  std::size_t step_;
  poster post_;
  fifo<group> queue_;
  // Per connection with frames queued, how many groups: found in O(1), never iterated (nothing
  // depends on its order).
  std::unordered_map<const client_link*, std::size_t> waiting_;
  bool posted_ = false;  // a step is on its way
};

}  // namespace carcassonne::server
