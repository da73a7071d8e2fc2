// The clocks of a room's seats at play (docs/protocol.md "Match", §21 "Vacation"): whose time
// runs and when it runs out, the checkpoints that write a running clock, and the seats whose
// clock holds while their player is on vacation. Owns the room_clock, its alarms and the
// vacations' end timers; asks its room through hooks (what the game is, who sits where) and
// tells it what to do (time a seat out, write the clock, show a hold). Room-strand code: every
// call and every callback runs there.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "match/clock_alarms.hpp"
#include "match/match_options.hpp"
#include "match/room_clock.hpp"
#include "match/room_timer.hpp"

namespace carcassonne::server {

class seat_clocks {
 public:
  using ms = std::chrono::milliseconds;
  // How long a player's vacation lasts from now (nothing: not on vacation), or that the players'
  // store cannot tell now (ok false).
  using vacation_answer = std::function<void(std::optional<ms> left, bool ok)>;
  // Asks the players' store, off the room's strand; `done` runs on the room's strand, and never
  // once the room is gone.
  using vacation_lookup = std::function<void(const std::string& player, vacation_answer done)>;

  struct hooks {
    // The seat to decide while a game is played; nothing before it starts and once it is over.
    std::function<std::optional<int>()> to_act;
    // The room takes no more changes (another instance owns it, or its store failed).
    std::function<bool()> stopped;
    // The account whose vacation holds `seat` (a person's seat); "" for a bot's or a guest's.
    std::function<std::string(int seat)> player;
    std::function<bool(int seat)> forfeited;  // the seat has left the game
    std::function<std::size_t()> moves;       // the journal's length: a late answer is dropped
    std::function<void(int seat)> time_out;   // its time is up and its player is not away
    std::function<void()> save;               // write the running clock now
    std::function<void()> away;               // the away check fell due (away_at)
    // A seat's clock holds (on) or runs again: the room queues the event that says so.
    std::function<void(int seat, bool on)> held;
    // After holds changed (timers already set anew): the room writes the clock, one patch.
    std::function<void()> holds_changed;
  };

  seat_clocks(match_options options, hooks h);
  ~seat_clocks();  // cancels the vacations' timers (a timer may outlive its room)
  seat_clocks(const seat_clocks&) = delete;
  seat_clocks& operator=(const seat_clocks&) = delete;

  void set_timer(room_timer_ptr t);
  bool has_timer() const { return timer_ != nullptr; }
  room_timer::clock::time_point now() const { return timer_->now(); }
  // The game starts with `seats` seats: every clock full.
  void start(int seats);
  room_clock& clock() { return clock_; }
  const room_clock& clock() const { return clock_; }
  bool enabled() const { return clock_.enabled(); }

  // The timer came to a game already under way (a restored room): its clock goes on with the
  // time it had.
  void resume();
  // After a change. decided: a new decision (its seat's clock runs); else only the timers.
  void changed(bool decided);
  // The away check at `when`, replacing the pending one (nothing: none).
  void away_at(std::optional<room_timer::clock::time_point> when) { alarms_.away_at(when); }

  // Vacations, in rooms whose match allows them: asks the store for each seated player's (when
  // the clock starts or is rebuilt, and when a lookup is attached).
  void attach_lookup(vacation_lookup f);
  void look_up();
  // `player`'s vacation lasts `left` more from now (nothing: it is over). Their seats' clocks
  // hold, or run again with the time they had.
  void vacation_changed(const std::string& player, std::optional<ms> left);

 private:
  int seats() const;
  bool playing() const { return hooks_.to_act().has_value(); }
  void on_timeout();
  void checkpoint();
  bool hold_seat(int seat, std::optional<ms> left);  // true: the hold changed
  void holds_changed();

  match_options options_;
  hooks hooks_;
  room_clock clock_;
  clock_alarms alarms_;  // the timeout, the checkpoint, the away check
  room_timer_ptr timer_;
  vacation_lookup lookup_;
  bool timeout_check_pending_ = false;            // a timeout waits for the store's answer
  std::vector<room_timer::handle> vacation_end_;  // per seat: when its vacation ends
};

}  // namespace carcassonne::server
