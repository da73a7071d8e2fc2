// A room's bots at play: which bot moves and when (a pause on the room's timer), its search on
// the bot runner (never on the room's strand), and the takeover of a seat whose owner stays away.
// Owns the pending bot turn and the pending takeover; the room tells it the position after every
// change (schedule) and gets the bot's move back through its hooks. Room-strand code.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "base/metrics.hpp"
#include "bots/bot_runner.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "match/room_timer.hpp"

namespace carcassonne::server {

class bot_turns {
 public:
  using poster = std::function<void(std::function<void()>)>;
  // What the part asks of its room: called from timers and results, never from schedule().
  struct hooks {
    // All a bot may see of the game for `seat` (information_set_of; never the state).
    std::function<information_set(int seat)> view;
    // The journal's length now; nothing without a game: a result asked for another is dropped.
    std::function<std::optional<std::size_t>()> moves;
    // The bot's move for `seat`, to be played through the room's one path of moves.
    std::function<void(int seat, const move& m)> play;
    // The owner of `seat` stayed away takeover_after seconds: a bot of `level` plays for it now.
    std::function<void(int seat, bot_level level)> take_over;
  };
  // The room after a change, as the bots see it.
  struct position {
    int seat = -1;          // the seat to act; -1: no game running
    std::size_t moves = 0;  // the journal's length
    bool absent = false;    // a person's seat, nobody plays for it, it has no connection
    std::optional<bot_level> controller;  // the bot that moves for the seat, if any
  };

  // `seed`: the room's own, from which each bot move's seed derives (reproducible per move).
  bot_turns(std::string seed, std::string room_id, metrics* m, hooks h);
  // Cancels its pending timer calls (a timer may outlive its room).
  ~bot_turns();
  bot_turns(const bot_turns&) = delete;
  bot_turns& operator=(const bot_turns&) = delete;

  void attach(bot_runner* runner, poster post, bot_limits limits);
  void set_timer(room_timer_ptr t) { timer_ = std::move(t); }
  // Bots and takeovers act only with a runner and a timer.
  bool ready() const { return runner_ && timer_; }
  // The pause before a bot's move and the takeover (the seats' bots are the room's).
  const protocol::room_bot_settings& settings() const { return settings_; }
  void set_settings(int pause_ms, int takeover_after, bot_level takeover_level);

  // After every change: a bot to act gets its turn (after the pause), a takeover starts, and
  // what no longer fits the position is cancelled.
  void schedule(const position& p);
  // A bot of `level` plays for `seat` at once, and is not cancelled while the seat still acts.
  void play_now(int seat, bot_level level, std::size_t moves);
  void cancel_turn();  // a search already running is dropped when it comes back

  // For tests: the pending turn's seat (-1 none) and the seat a takeover waits for (-1 none).
  int turn_seat() const { return turn_.seat; }
  int absent_seat() const { return absent_seat_; }

 private:
  struct turn {
    std::uint64_t ticket = 0;  // 0: none
    int seat = -1;
    std::size_t moves = 0;  // journal length it was asked for: a later result is stale
    bot_level level = bot_level::random;
    bool forced = false;  // play_now: not cancelled while the seat is still to act
    room_timer::handle timer = 0;
  };
  void start(int seat, bot_level level, bool forced, std::size_t moves,
             std::chrono::milliseconds pause);
  void think(std::uint64_t ticket);
  void on_result(std::uint64_t ticket, const bot_result& r);

  std::string seed_, room_id_;
  metrics* metrics_;
  hooks hooks_;
  protocol::room_bot_settings settings_;  // its seats unused: the room's seats say who is a bot
  bot_runner* runner_ = nullptr;
  poster post_;
  bot_limits limits_;
  room_timer_ptr timer_;
  std::uint64_t last_ticket_ = 0;
  turn turn_;
  int absent_seat_ = -1;  // to act and disconnected; takeover_timer_ hands it to a bot
  room_timer::handle takeover_timer_ = 0;
};

}  // namespace carcassonne::server
