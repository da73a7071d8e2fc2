// Time for a room: what a room needs to act later (a bot's pause, a clock running out, a
// takeover). The server gives each room a timer whose callbacks run on the room's strand; room
// tests give it a fake one that they advance by hand (tests/server/fake_timer.hpp), never sleep.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace carcassonne::server {

class room_timer {
 public:
  using clock = std::chrono::steady_clock;
  using handle = std::uint64_t;  // 0 is never a live timer

  virtual ~room_timer() = default;
  virtual clock::time_point now() const = 0;
  // Runs `fn` on the room's strand at `when` (at once if it has passed), unless cancelled first.
  virtual handle call_at(clock::time_point when, std::function<void()> fn) = 0;
  // Forgets a pending call; a handle already run or cancelled is ignored.
  virtual void cancel(handle h) = 0;

  handle call_after(clock::duration d, std::function<void()> fn) {
    return call_at(now() + d, std::move(fn));
  }
};
using room_timer_ptr = std::shared_ptr<room_timer>;

}  // namespace carcassonne::server
