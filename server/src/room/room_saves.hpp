// What a room writes besides its moves: the meta (settings, seats, bots, rematch, setup, clock
// and the seq claim, room_meta.hpp), the game's end with the save that finishes it, and the
// notices and "my games" rows each write carries (notice_rows.hpp). Owns the meta's text kept
// while a clocked game plays, whether the end is stored, and the notices queued; writes through
// the room's room_writes. It reads the room through a save_source, so it is tested without one.
// Room-strand code.
#pragma once
#include <cstdint>
#include <string>

#include "carcassonne/protocol/bot_messages.hpp"
#include "match/rematch_state.hpp"
#include "match/room_timer.hpp"
#include "match/seat_clocks.hpp"
#include "room/notice_rows.hpp"
#include "room/room_members.hpp"
#include "room/room_settings.hpp"
#include "room/room_writes.hpp"
#include "table/game_table.hpp"

namespace carcassonne::server {

// The room as a save sees it, read-only.
struct save_source {
  const room_settings& settings;
  const room_members& members;
  const game_table& table;
  const seat_clocks& clocks;
  const room_timer* timer;  // nullptr: no timer (no clock is counted)
  const protocol::room_bot_settings& bots;
  const rematch_state& rematch;
  std::uint64_t seq;  // the room's seq now
};

class room_saves {
 public:
  room_saves(room_writes& writes, const room_settings& settings);

  // Issues `w` (when the room writes at all) with the notices queued and the "my games" rows
  // when they changed.
  void write(const save_source& r, store_write w);
  // The meta built anew; the game's end goes with it the first time after the end, so the index
  // of games and the ratings are written in its transaction (a game is rated iff it ended).
  void meta(const save_source& r);
  // A clocked game writes its clock with every move: the rest of the meta changes only where
  // meta() is called, so it is built once per game in progress and kept as text.
  void clock(const save_source& r);
  std::string meta_text(const save_source& r) const;  // the whole meta as it is now

  // A notice of `kind` about `what` for the account at `seat` (none: nothing), with the next write.
  void notice(const save_source& r, int seat, const char* kind, const std::string& what);
  void write_notices(const save_source& r);  // now, with a meta, if any are queued

  // A room rebuilt from the store: what the store holds already is not told again; `end_unsaved`:
  // its row did not say the game ended, which attached() then saves.
  void restored(const save_source& r, bool end_unsaved);
  void attached(const save_source& r);

 private:
  std::string meta_rest(const save_source& r) const;  // the meta but its clock and seq
  std::string with_clock(const save_source& r, const std::string& rest) const;

  room_writes& writes_;
  std::string meta_rest_;     // the meta but clock and seq while a clocked game plays, or ""
  bool end_stored_ = false;   // the game's end went with a save
  bool end_unsaved_ = false;  // restored ended from a row that did not say so: saved at attach
  notice_rows notices_;       // the notices and "my games" rows for the next write
};

}  // namespace carcassonne::server
