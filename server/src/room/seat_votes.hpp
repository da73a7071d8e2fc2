// The questions a room puts to its seats: a take-back request (docs/protocol.md "Undo") and the
// rematch offer ("Rematch"), each answered in time or declined. Owns the open request, the
// rematch state and their answer timers; what it needs of its room (events, notices, the meta,
// the take-back itself, the rematch's room, a frame to a seat) comes through hooks, so it is
// tested without a room. Room-strand code.
//
// Undo: the room's undo mode decides (`consent` asks the other seats in play; a seat a bot holds
// or plays for accepts at once: a bot never keeps a person from correcting a slip). Rematch:
// every seat answers with its nonce for the rematch's seed (docs/fairness.md "Rematches"); those
// who accepted are seated in a new room in seat order (bots accept at once), and each seat's
// place there opens with the token it holds here, told to its connection in `rematch_ready` and
// at every later resume of the seat, so that no seat is left out of a game that waits for it.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "carcassonne/protocol/json_codec.hpp"
#include "match/rematch_state.hpp"
#include "match/room_timer.hpp"
#include "match/undo_vote.hpp"
#include "room/client_link.hpp"
#include "room/room_settings.hpp"
#include "room/seat_slot.hpp"

namespace carcassonne::server {

struct game_table;

class seat_votes {
 public:
  struct hooks {
    std::function<void(const nlohmann::json&)> event;  // a room event, for the next patch
    std::function<void()> changed;  // an answer's time ran out: the room's patch now
    // A notice for the account at `seat` (none: nothing), with the next write; then written.
    std::function<void(int seat, const char* kind, const std::string& key)> notice;
    std::function<void()> write_notices;
    std::function<void()> save_meta;  // durable before anyone is told
    std::function<void()> take_back;  // the last move goes (the room replays its journal)
    // The rematch's room (its id; "" none: the offer lapses).
    std::function<std::string(room_settings, std::vector<seat_init>)> spawn;
    std::function<void(const client_ptr&, const nlohmann::json&)> send;
  };
  // A take-back asked by a seat: what the room knows of the others.
  struct undo_ask {
    std::size_t steps = 0;     // moves of the seat's that can be taken back (undoable_steps)
    std::uint8_t persons = 0;  // the other seats in play that a person answers for
    std::uint8_t bots = 0;     // the other seats in play that a bot holds or plays for
    std::int64_t rows = 0;     // journal rows written: the notice's key
  };
  using refusal = std::optional<protocol::proto_error>;

  // `settings` and `seats`: the room's, read when asked (they outlive the part).
  seat_votes(const room_settings& settings, const std::vector<seat_slot>& seats, hooks h)
      : settings_(settings), seats_(seats), hooks_(std::move(h)) {}
  ~seat_votes();  // cancels its timers: a timer may outlive its room
  seat_votes(const seat_votes&) = delete;
  seat_votes& operator=(const seat_votes&) = delete;
  void set_timer(room_timer_ptr t) { timer_ = std::move(t); }

  // A seat asks to take back its last move; `reply(type)`: "undone" (taken back at once) or
  // "undo_requested", before the room's patch.
  refusal ask_undo(int seat, const undo_ask& a, const std::function<void(const char*)>& reply);
  // A seat answers the open request (`reply` before its effects).
  refusal answer_undo(int seat, bool accept, const std::function<void()>& reply);
  // The open request ends unanswered: `reason` (undo_declined's), or silently when null.
  void end_undo(const char* reason);
  const undo_vote* undo() const { return undo_ ? &*undo_ : nullptr; }

  // A seat answers the rematch (the first acceptance is the offer), once the game is over.
  refusal answer_rematch(int seat, bool accept, const std::string& nonce,
                         const std::function<void()>& reply);
  // A seat resumes: told where its rematch is, if it accepted one that is made.
  void resume(const client_ptr& c, int seat, const std::string& token);
  rematch_state& rematch() { return rematch_; }
  const rematch_state& rematch() const { return rematch_; }

 private:
  void settle();
  void tell(const client_ptr& c, int seat, const std::string& token);

  const room_settings& settings_;
  const std::vector<seat_slot>& seats_;
  hooks hooks_;
  room_timer_ptr timer_;
  std::optional<undo_vote> undo_;  // the open take-back request
  rematch_state rematch_;
};

// What a take-back asked by `seat` needs to know of the room's game (started) and seats.
seat_votes::undo_ask undo_ask_of(const game_table& t, const std::vector<seat_slot>& seats, int seat,
                                 std::int64_t rows);

}  // namespace carcassonne::server
