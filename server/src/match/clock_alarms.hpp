// The alarms of a room's clocks, on the room's timer: the running clock's timeout, the
// checkpoint that writes a running clock now and then, and the check that every seat has been
// away too long. Owns their pending timer calls; the room says when each falls due and is
// called back through its hooks (on its strand, as the timer runs them).
#pragma once
#include <functional>
#include <optional>

#include "match/room_timer.hpp"

namespace carcassonne::server {

class clock_alarms {
 public:
  using time_point = room_timer::clock::time_point;
  struct hooks {
    std::function<void()> timeout;     // the running clock ran out (or asks again)
    std::function<void()> checkpoint;  // time to write the running clock
    std::function<void()> away;        // the last seat in play has been away for the limit
  };
  explicit clock_alarms(hooks h) : hooks_(std::move(h)) {}
  // Cancels what is pending (a timer may outlive its room).
  ~clock_alarms();
  clock_alarms(const clock_alarms&) = delete;
  clock_alarms& operator=(const clock_alarms&) = delete;

  // Without a timer nothing is ever due.
  void set_timer(room_timer_ptr t) { timer_ = std::move(t); }

  // The timeout at `when`, replacing the pending one; nothing: none pending.
  void timeout_at(std::optional<time_point> when);
  // The timeout asked again after `d` (from the timeout's own call, none pending then).
  void timeout_after(room_timer::clock::duration d);
  // A checkpoint `d` from now, unless one is pending already.
  void checkpoint_after(room_timer::clock::duration d);
  // The away check at `when`, replacing the pending one; nothing: none pending.
  void away_at(std::optional<time_point> when);

  bool timeout_pending() const { return timeout_ != 0; }
  bool checkpoint_pending() const { return checkpoint_ != 0; }
  bool away_pending() const { return away_ != 0; }

 private:
  hooks hooks_;
  room_timer_ptr timer_;
  room_timer::handle timeout_ = 0, checkpoint_ = 0, away_ = 0;
};

}  // namespace carcassonne::server
