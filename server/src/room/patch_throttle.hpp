// At most one patch a second for a change nobody needs at once: a spectator arriving or leaving
// (the room part's count). A crowd joining one by one would otherwise cost the square of its
// size in frames (each arrival a patch to everyone there). The first change after a quiet
// interval goes at once, so a room with a few watchers sees each as before; later ones wait for
// the interval to end and go together. Any patch the room sends meanwhile carries the change
// (shown), and the wait ends. On the room's timer; without one, every change goes at once.
// Room-strand code.
#pragma once
#include <chrono>
#include <functional>
#include <optional>

#include "match/room_timer.hpp"

namespace carcassonne::server {

class patch_throttle {
 public:
  using duration = room_timer::clock::duration;
  // `send`: one patch now (the room's broadcast of no event).
  explicit patch_throttle(std::function<void()> send, duration interval = std::chrono::seconds(1))
      : send_(std::move(send)), interval_(interval) {}
  ~patch_throttle();  // cancels the pending patch (a timer may outlive its room)
  patch_throttle(const patch_throttle&) = delete;
  patch_throttle& operator=(const patch_throttle&) = delete;

  void set_timer(room_timer_ptr t) { timer_ = std::move(t); }
  // Something changed that the next patch shows: send it now, or once the interval is over.
  void changed();
  // A patch went for another reason: it showed the change, nothing waits any more.
  void shown();
  bool pending() const { return pending_ != 0; }

 private:
  std::function<void()> send_;
  duration interval_;
  room_timer_ptr timer_;
  std::optional<room_timer::clock::time_point> last_;  // when the last patch went
  room_timer::handle pending_ = 0;
};

}  // namespace carcassonne::server
