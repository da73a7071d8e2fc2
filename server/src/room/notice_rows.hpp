// What a room writes for the notifications (store.hpp notice, my_game; server/src/notify reads
// them): the notices of its events, each written with the write that makes it, and the "my
// games" rows of its seats with accounts, rewritten with the write that changes them. A notice's
// key names the event (the journal length for a turn), so a room rebuilt after a restart or a
// failover writes the same key again for the same event, which the outbox skips. Owns the
// notices queued and what it last wrote; the room hands it values. Room-strand code.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "match/match_options.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

class notice_rows {
 public:
  // The room's facts every notice carries.
  notice_rows(std::string room_id, std::string room_name, time_control clock);

  // The notice of `kind` for `player`, the account of `seat`, about the event `what` (its key),
  // at journal length `turn`; written with the next write.
  void add(const std::string& player, int seat, const char* kind, const std::string& what,
           std::int64_t turn);
  bool empty() const { return queued_.empty(); }
  void clear() { queued_.clear(); }

  // The room as a write leaves it.
  struct moment {
    int acting = -1;                // the seat to act, -1: none (no game, or over)
    bool over = false;              // the game is over
    std::int64_t stored_moves = 0;  // journal rows written
    std::int64_t now_ms = 0;        // wall clock, for the rows' updated_ms
  };
  // Hands `w` the notices queued, your_turn when the decision passed to another seat, game_over
  // once, and `mine` (its `turn` set here) when the rows changed; `mine.players` are the
  // accounts told. A delete gets nothing, and the queue waits for the next write.
  void fill(store_write& w, const moment& m, my_game mine);
  // A room rebuilt from the store: what the store holds already is not told again.
  void restored(int acting, std::int64_t stored_moves, bool over);
  // The journal length when the acting seat got the turn (my_game's `turn`).
  std::int64_t turn_since() const { return turn_since_; }

  static const char* clock_name(time_control c);

 private:
  std::string room_id_, room_name_;
  time_control clock_;
  std::vector<notice> queued_;  // for the next write
  std::string mine_written_;    // what the last "my games" rows said ("" none written)
  int turn_seat_ = -1;          // the acting seat as last written
  std::int64_t turn_since_ = 0;
  bool over_told_ = false;  // game_over is written
};

}  // namespace carcassonne::server
