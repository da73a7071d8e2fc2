// A room: seats, spectators and one game. Not thread-safe by itself: the server runs each room's
// calls on the room's own strand (so rooms never block each other); tests call it directly.
// A room talks to connections only through client_link.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/metrics.hpp"
#include "bots/bot_runner.hpp"
#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "match/rematch_state.hpp"
#include "match/room_clock.hpp"
#include "match/room_timer.hpp"
#include "match/seat_clocks.hpp"
#include "match/undo_vote.hpp"
#include "room/bot_turns.hpp"
#include "room/client_link.hpp"
#include "room/notice_rows.hpp"
#include "room/patch_throttle.hpp"
#include "room/room_listing.hpp"
#include "room/room_part.hpp"
#include "room/room_settings.hpp"
#include "room/room_writes.hpp"
#include "room/seat_slot.hpp"
#include "store/room_state.hpp"
#include "store/store.hpp"
#include "table/game_table.hpp"

namespace carcassonne::server {

using json = nlohmann::json;

class room {
 public:
  room(room_settings settings, metrics* m, std::weak_ptr<const client_link> creator);
  // Cancels the room's pending timer calls: a timer may outlive its room (tests share one).
  ~room();
  // Rebuilds a stored room by replaying its journal through the engine (server start); nothing,
  // with a message naming the room and the move, when the stored game does not replay.
  static std::unique_ptr<room> restore(const stored_room& stored, metrics* m, std::string& error);

  // Makes the room durable: every change is written to `s` before any frame that shows it leaves
  // (frames wait in the room's outbox). `post` runs a function on the room's strand.
  using poster = std::function<void(std::function<void()>)>;
  void attach_store(store* s, poster post);
  // Gives the room its time (bot pauses, clocks, takeovers): callbacks run on the room's strand.
  // A room without a timer never acts on its own.
  // Clocks start (or resume, after a restart) once the room has its timer.
  void attach_timer(room_timer_ptr t);
  // Creates the room of a rematch (the lobby's job): settings (the secret is this room's
  // rematch_secret) and seats in order; returns the new room's id, or empty.
  using seat_init = carcassonne::server::seat_init;
  using spawner = std::function<std::string(room_settings, std::vector<seat_init>)>;
  void attach_spawner(spawner s) { spawn_ = std::move(s); }
  // Called on the room's strand when its game ends (once; not for a game restored finished):
  // the lobby then checks whether the room can leave memory, as a bots-only game nobody watches
  // never has a connection leave to make it check.
  void attach_on_finished(std::function<void()> f) { on_finished_ = std::move(f); }
  // A rematch's room: its seats taken; start_rematch() starts the game (once the store and
  // timer are attached).
  static std::unique_ptr<room> rematch_room(room_settings settings,
                                            const std::vector<seat_init>& seats, metrics* m);
  void start_rematch();

  // Bots (room_bots.cpp). Bots think on `runner`, never on the room's strand; `post` brings
  // their moves back onto it. Without a runner and a timer, bots and takeovers never move.
  void attach_bots(bot_runner* runner, poster post, bot_limits limits);
  // At creation: seats the bots of `b.seats`, keeps the pause and takeover settings.
  void set_bot_settings(const protocol::room_bot_settings& b);
  // Room-strand: plays one move for `seat` now (no pause) with a bot of `level`, through the
  // same path as every move, if that seat is to act; the result is dropped if the game moved
  // on meanwhile. For a clock's "timeout action: bot".
  void play_for_seat(int seat, bot_level level);

  // Room-strand calls: one per client message, plus disconnected().
  // `player`: the joining connection's player id ("" when it is not signed in); a signed-in
  // player sits under `m.name` as the connection gives it (the player's name).
  void join(const client_ptr& c, const protocol::join_msg& m, const json& id,
            const std::string& player = {});
  void spectate(const client_ptr& c, const json& id);
  // Without a token, a signed-in `player` resumes the seat that is theirs (a room the server
  // arranged for them has no token to give).
  void resume(const client_ptr& c, const protocol::resume_msg& m, const json& id,
              const std::string& player = {});
  void leave(const client_ptr& c, const json& id);
  void start(const client_ptr& c, const json& id);
  void move(const client_ptr& c, protocol::move_msg m, const json& id);
  void chat(const client_ptr& c, const protocol::chat_msg& m, const json& id);
  void snapshot(const client_ptr& c, const json& id);
  void nonce(const client_ptr& c, const protocol::nonce_msg& m, const json& id);
  // The events of the game so far, rebuilt from the journal, at most history_page moves a time.
  void history(const client_ptr& c, const protocol::history_msg& m, const json& id);
  static constexpr int history_page = 40;
  void add_bot(const client_ptr& c, const protocol::add_bot_msg& m, const json& id);
  void remove_bot(const client_ptr& c, const protocol::remove_bot_msg& m, const json& id);
  void disconnected(const client_ptr& c);
  // The seat of `player` resigns, as if it had sent `resign` (a tournament's director removed
  // the player): false when no seat of the player is still in play.
  bool resign_player(const std::string& player);
  // resign, undo, undo_answer, rematch (room_match.cpp, room_undo.cpp, room_rematch.cpp).
  void match_action(const client_ptr& c, const protocol::match_msg& m, const json& id);

  // A cluster (docs/scaling.md, room_lease.cpp). Every write of the room carries `g`, the lease
  // generation this instance holds for it. Thread-safe (set right after the lease is taken).
  void set_lease_generation(std::uint64_t g) { writes_.set_generation(g); }
  std::uint64_t lease_generation() const { return writes_.generation(); }
  // Room strand: another instance owns the room now (its lease was taken, or the store fenced a
  // write off). The room stops without writing again: frames held for writes not stored are
  // dropped, every connection is told `room_moved` (reconnect and resume) and leaves the room.
  void lease_lost();
  bool moved_away() const { return writes_.stopped(); }
  // Room strand: a write of the room failed (docs/hosting.md "When the database fails"). First
  // `f` of attach_storage_loss runs (the lobby lets go of the room, and rebuilds it from the store
  // once the store answers); then held answers become storage_failed refusals, the rest of what
  // was held is dropped, and the room stops as on lease_lost (room_moved to every connection).
  void storage_lost();
  // The room's public stream relayed to spectators on other instances (room_relay.cpp,
  // docs/scaling.md "Spectators on every instance"). `link` gets what a spectator here gets, from
  // a snapshot on (one link a room: a new one replaces the old); it is counted as no spectator.
  // `spectators`: how many watch through it, counted in the room's spectators. Room strand.
  void attach_relay(const client_ptr& link);
  void detach_relay(const client_ptr& link);  // only if it is still the room's link
  void set_relayed_spectators(int spectators);
  void attach_storage_loss(std::function<void()> f) { storage_lost_ = std::move(f); }

  // Vacation (docs/protocol.md §21 "Vacation"; seat_clocks.hpp): the lookup asks the players'
  // store how long a player's vacation lasts; the lobby passes on every change.
  using vacation_answer = seat_clocks::vacation_answer;
  using vacation_lookup = seat_clocks::vacation_lookup;
  void attach_vacation_lookup(vacation_lookup f) { clocks_.attach_lookup(std::move(f)); }
  void vacation_changed(const std::string& player, std::optional<std::chrono::milliseconds> left) {
    clocks_.vacation_changed(player, left);
  }
  // Thread-safe (the match options never change): whether this room's clocks hold for vacations.
  bool vacation_applies() const { return settings_.match.vacation_applies(); }

  // Writes the running clock with the room (server stop), so that a restart resumes each clock
  // with the time it had when the server stopped. Room strand, or after the I/O threads stopped.
  void save_clock();

  // Thread-safe (room_listing.hpp).
  room_summary summary() const { return listing_.summary(); }
  const std::string& id() const { return settings_.id; }
  bool arranged() const { return settings_.arranged; }
  bool abandoned() const { return listing_.abandoned(); }

  // Room-strand reads, for tests and the record endpoint.
  const game_state* game() const { return table_.game ? &*table_.game : nullptr; }
  std::uint64_t seq() const { return seq_; }
  // How far ahead of seq() a stored meta claims (its "seq"), so that a change that writes
  // nothing needs a meta write only once every seq_reserve changes.
  static constexpr std::uint64_t seq_reserve = 64;
  // Writes issued to the store and not yet durable (the lobby keeps the room until none are).
  bool writes_pending() const { return writes_.writes_pending(); }
  json record() const;  // setup + moves (game-record.md); the seed is inside: finished games only
  std::optional<json> finished_record() const { return listing_.finished_record(); }
  // What the store keeps of the room besides its journal (settings, seats with hashed tokens):
  // a JSON object's text.
  std::string stored_meta() const;

 private:
  static constexpr std::size_t answers_kept = 32;  // per seat, for duplicate moves

  int seat_of(const client_link* c) const;
  bool is_spectator(const client_link* c) const;
  // Every frame leaves through here: held while a write that it may show is not yet durable.
  void out(const client_ptr& c, frame_ptr frame);
  void persist(store_write w);
  void persist_meta();   // the meta built anew (with the game's end, the first time after it)
  void persist_clock();  // the meta with the clock as it is now, the rest as last built
  std::string stored_meta_rest() const;
  std::string meta_with_clock(const std::string& rest) const;
  void send(const client_ptr& c, const json& message);
  void answer(const client_ptr& c, int seat, const json& id, const json& message);
  void answer(const client_ptr& c, int seat, const json& id, std::string message_text);
  void fail(const client_ptr& c, const json& id, std::string code, std::string message);

  // The room part of the views (room_info.cpp); `clock` gets where the clock is.
  std::string room_info_text(room_part::clock_span* clock = nullptr) const;
  // When a room part written now reads its clock (none: it shows no clock).
  std::optional<room_clock::time_point> clock_read_now() const {
    if (clocks_.enabled() && table_.game && timer_) return timer_->now();
    return std::nullopt;
  }
  // The room part anew, where the clock is not known: the next change diffs it whole.
  void reset_room_part() { part_.reset(room_info_text(), clock_read_now()); }
  room_state state() const {
    return !table_.game        ? room_state::waiting
           : table_.finished() ? room_state::finished
                               : room_state::playing;
  }
  // Fairness (room_fairness.cpp): the room part's "fairness", the seed a start derives.
  void append_fairness_part(std::string& out) const;  // its JSON text
  std::string game_seed(const std::vector<seat_slot>& seats) const;
  // The one path of every accepted move, a client's or a bot's: apply, journal, answer `c` (if
  // any), broadcast. An engine refusal is returned and changes nothing.
  std::optional<protocol::proto_error> play_move(int seat, const carcassonne::move& mv,
                                                 const json& id, const client_ptr& c);

  // Bots (room_bots.cpp).
  std::optional<bot_level> controller(int seat) const;  // the bot that moves for a seat, if any
  std::optional<protocol::proto_error> bot_seat_refusal(std::optional<long long> named) const;
  void schedule_bots();  // after every change: tells bots_ the position
  bot_turns::hooks bot_hooks();
  void take_over(int seat, bot_level level);  // a bot plays for the absent owner of `seat`
  void release_takeover(int seat);
  bool can_manage_bots(const client_ptr& c, const json& id);
  std::string view_text(int seat);  // the whole view of a seat (or spectator, -1), as sent
  void send_snapshot(const client_ptr& c, int seat, const json& id);
  // One change: its patch carries the room's events queued since the last one (room_event),
  // then `events`, the game's.
  void broadcast(const event_log& events);
  // Queues an event of the room itself (room_events.hpp) for the next broadcast.
  void room_event(const json& e) { room_events_.push_back(e.dump()); }
  bool update_room_part(std::string& ops);  // false: the room part did not change
  void send_seat_patches(const std::string& head, const std::string& ops, bool game_appeared);
  void send_spectator_patch(const std::string& events_text, const std::string& shared_ops,
                            const std::string& seat_ops, bool game_appeared);
  std::string patch_head(std::string_view events_text) const;
  void publish_summary();

  // Match (room_match.cpp): clocks, timeouts, forfeits, presence.
  // Every change of the game goes through here before its patch: history, clocks, requests.
  void after_move(const carcassonne::move& m, const event_log& events);
  seat_clocks::hooks clock_hooks();
  void time_out(int seat);  // the timeout of `seat`, its player not on vacation
  void note_presence();
  void check_away();
  void journal_entry(const json& entry, const json& id, const event_log& events);
  std::uint8_t with_bots_if_no_person_left(std::uint8_t leaving) const;
  void forfeit_seats(std::uint8_t seats, const char* reason, bool on_timeout);
  // Notifications (room_notices.cpp): every write carries the notices queued since the last
  // one and the "my games" rows when they changed; write_notices() writes queued ones at once.
  void add_room_rows(store_write& w);
  const std::string* account_of(int seat) const;  // the seat's account to tell, if any
  void add_notice(int seat, const char* kind, const std::string& what);
  my_game my_game_now() const;
  void write_notices();
  // Undo (room_undo.cpp).
  void request_undo(const client_ptr& c, int seat, const json& id);
  void answer_undo(const client_ptr& c, int seat, bool accept, const json& id);
  void take_back();
  // Closes the open request; `reason` (undo_declined's) when it ends without a take-back.
  void end_undo_request(const char* reason);
  // Rematch (room_rematch.cpp).
  void answer_rematch(const client_ptr& c, int seat, bool accept, const std::string& nonce,
                      const json& id);
  void settle_rematch();
  void resume_rematch(const client_ptr& c, int seat, const std::string& token);

  room_settings settings_;
  std::string commitment_;  // SHA-256 of settings_.secret (docs/fairness.md), or empty
  metrics* metrics_;
  bool is_creator(const client_link* c) const {
    const auto p = creator_.lock();  // a dead connection's address may be reused
    return p && p.get() == c;
  }
  std::weak_ptr<const client_link> creator_;  // the connection that created the room
  int creator_seat_ = -1;                     // the seat it took (start rights follow it)
  std::vector<seat_slot> seats_;
  std::vector<client_ptr> spectators_;  // with the relay's link, when attached
  client_ptr relay_;                    // attach_relay(), or null
  int relayed_ = 0;                     // spectators elsewhere, through relay_
  // Spectators connected here (the relay's link is none); shown: with those relayed.
  std::size_t local_spectators() const { return spectators_.size() - (relay_ ? 1 : 0); }
  std::size_t shown_spectators() const { return local_spectators() + (relay_ ? relayed_ : 0); }

  game_table table_;  // the game, its journal and record, the views it was last shown as
  std::uint64_t seq_ = 0;
  // The stored meta but its clock and seq, while a clocked game is played (persist_clock); ""
  // otherwise, and emptied by every persist_meta.
  std::string meta_rest_;

  room_part part_;        // the room part of the views, as last sent
  room_listing listing_;  // the summary and finished record, for any thread

  room_writes writes_;  // to the store, and the frames waiting for them (attach_store)
  room_timer_ptr timer_;

  // Bots at play: the pending bot turn and takeover (the seats say who is a bot).
  bot_turns bots_;
  bool end_stored_ = false;  // the game's end went with a save (room_store.cpp)
  // Rebuilt from a journal whose last move ended the game, from a row that did not say so yet
  // (the server stopped between the two commits): the end is saved once the store is attached.
  bool end_unsaved_ = false;
  void refuse_moved(const client_ptr& c, const json& id);
  void stop_here(const protocol::proto_error& why);  // lease_lost and storage_lost
  std::function<void()> storage_lost_;

  notice_rows notices_;  // the notices and "my games" rows for the next write

  // Match state.
  std::vector<std::string> room_events_;   // room_event(): JSON texts, for the next broadcast
  std::optional<undo_vote> undo_request_;  // the open take-back request
  seat_clocks clocks_;                     // the seats' clocks, their alarms, vacations
  patch_throttle audience_;                // the spectators' count: at most a patch a second
  rematch_state rematch_;
  // `rematch_ready` for a seat that accepted, with its token there.
  void tell_rematch(const client_ptr& c, int seat, const std::string& token);
  spawner spawn_;
  std::function<void()> on_finished_;  // attach_on_finished()

  record_parts parts_of_record() const;  // what the record is made of (record_parts.hpp)
};

}  // namespace carcassonne::server
