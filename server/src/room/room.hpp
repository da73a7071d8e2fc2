// A room: seats, spectators and one game. Not thread-safe by itself: the server runs each room's
// calls on the room's own strand (so rooms never block each other); tests call it directly. A
// room talks to connections only through client_link, to the server through room_hooks. The
// room keeps its members, its outbox and its patches; its parts own the rest (README.md).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/metrics.hpp"
#include "bots/bot_runner.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "match/room_timer.hpp"
#include "match/seat_clocks.hpp"
#include "room/bot_turns.hpp"
#include "room/client_link.hpp"
#include "room/patch_throttle.hpp"
#include "room/room_hooks.hpp"
#include "room/room_listing.hpp"
#include "room/room_members.hpp"
#include "room/room_part.hpp"
#include "room/room_saves.hpp"
#include "room/room_writes.hpp"
#include "room/seat_votes.hpp"
#include "store/store.hpp"
#include "table/game_table.hpp"

namespace carcassonne::server {

using json = nlohmann::json;

class room {
 public:
  room(room_settings settings, metrics* m, std::weak_ptr<const client_link> creator);
  // A stored room rebuilt by replaying its journal; nothing, with `error`, if it does not replay.
  static std::unique_ptr<room> restore(const stored_room& stored, metrics* m, std::string& error);
  // A rematch's room, its seats taken; start_rematch() starts it once store and timer are in.
  static std::unique_ptr<room> rematch_room(room_settings settings,
                                            const std::vector<seat_init>& seats, metrics* m);
  void start_rematch();

  // What the room uses (each optional): the store (every change durable before a frame shows
  // it), the timer (bot pauses, clocks, takeovers), the bots' runner (never the room's strand);
  // `post` runs a function on the room's strand.
  using poster = std::function<void(std::function<void()>)>;
  void attach_store(store* s, poster post);
  void attach_timer(room_timer_ptr t);
  void attach_bots(bot_runner* runner, poster post, bot_limits limits);
  void attach_hooks(room_hooks h);
  void set_bot_settings(const protocol::room_bot_settings& b);  // at creation: seats its bots

  // Room-strand calls: one per client message (`player`: a signed-in connection's player id).
  void join(const client_ptr& c, const protocol::join_msg& m, const json& id,
            const std::string& player = {});
  void spectate(const client_ptr& c, const json& id);
  void resume(const client_ptr& c, const protocol::resume_msg& m, const json& id,
              const std::string& player = {});
  void leave(const client_ptr& c, const json& id);
  void start(const client_ptr& c, const json& id);
  void move(const client_ptr& c, protocol::move_msg m, const json& id);
  void chat(const client_ptr& c, const protocol::chat_msg& m, const json& id);
  void snapshot(const client_ptr& c, const json& id);
  void nonce(const client_ptr& c, const protocol::nonce_msg& m, const json& id);
  void history(const client_ptr& c, const protocol::history_msg& m, const json& id);
  void add_bot(const client_ptr& c, const protocol::add_bot_msg& m, const json& id);
  void remove_bot(const client_ptr& c, const protocol::remove_bot_msg& m, const json& id);
  void match_action(const client_ptr& c, const protocol::match_msg& m, const json& id);
  void disconnected(const client_ptr& c);
  // The server's own acts: `seat` moves now with a bot of `level` (a clock's timeout action);
  // the seat of `player` resigns (false: none in play); the vacations' changes.
  void play_for_seat(int seat, bot_level level);
  bool resign_player(const std::string& player);
  void vacation_changed(const std::string& player, std::optional<std::chrono::milliseconds> left);
  bool vacation_applies() const { return settings_.match.vacation_applies(); }  // thread-safe

  // A cluster (docs/scaling.md): every write carries the lease generation (thread-safe, set once
  // the lease is taken). The room stops (room_writes stopped) when another instance owns it
  // (lease_lost) or a write failed (storage_lost: held answers become storage_failed).
  void set_lease_generation(std::uint64_t g) { writes_.set_generation(g); }
  void lease_lost();
  void storage_lost();
  void save_clock();  // the running clock written (server stop), for a restart to resume
  // The stream relayed to other instances (room_relay.cpp): `link` gets what a spectator gets.
  void attach_relay(const client_ptr& link);    // a new link replaces the old
  void detach_relay(const client_ptr& link);    // only if it is still the room's link
  void set_relayed_spectators(int spectators);  // watching through it elsewhere

  // Thread-safe: the summary and the finished record (room_listing.hpp), settings never changed.
  const room_listing& listing() const { return listing_; }
  const std::string& id() const { return settings_.id; }
  bool arranged() const { return settings_.arranged; }
  // Room-strand reads, for tests and the record endpoint.
  const game_state* game() const { return table_.game ? &*table_.game : nullptr; }
  std::uint64_t seq() const { return seq_; }
  const room_writes& writes() const { return writes_; }  // the lobby waits for pending writes
  json record() const;  // setup + moves (game-record.md); the seed inside: finished games only
  std::string stored_meta() const;  // what the store keeps besides the journal (JSON text)

 private:
  void out(const client_ptr& c, frame_ptr frame);  // held while a write it may show is not durable
  void send(const client_ptr& c, const json& message);
  void fail(const client_ptr& c, const json& id, std::string code, std::string message);
  void send_snapshot(const client_ptr& c, int seat, const json& id);
  // One change: its patch carries the room's queued events (room_event), then the game's.
  void broadcast(const event_log& events);
  void room_event(const json& e) { room_events_.push_back(e.dump()); }
  std::string room_info_now(room_part::clock_span* clock = nullptr) const;
  void reset_room_part();  // anew, where the clock is not known: the next change diffs it whole
  void publish_summary();
  // The one path of every accepted move, a client's or a bot's; an engine refusal changes nothing.
  std::optional<protocol::proto_error> play_move(int seat, const carcassonne::move& mv,
                                                 const json& id, const client_ptr& c);
  void after_move(const carcassonne::move& m, const event_log& events);  // history, clocks
  void journal_entry(const json& entry, const json& id, const event_log& events);
  save_source saving() const;        // the room as saves_ reads it (room_store.cpp)
  bot_turns::hooks bot_hooks();      // bots (room_bots.cpp)
  void schedule_bots();              // after every change: tells bots_ the position
  seat_clocks::hooks clock_hooks();  // match: room_match.cpp, room_undo.cpp
  void time_out(int seat);
  void note_presence();
  void forfeit_seats(std::uint8_t seats, const char* reason, bool on_timeout);
  seat_votes::hooks vote_hooks();
  void take_back();  // the last move goes: the journal replayed without it (room_undo.cpp)

  room_settings settings_;
  std::string commitment_;  // SHA-256 of settings_.secret (docs/fairness.md), or empty
  metrics* metrics_;
  room_hooks hooks_;
  room_members members_;
  std::vector<std::string> room_events_;  // room_event(): JSON texts, for the next broadcast
  game_table table_;  // the game, its journal and record, the views it was last shown as
  std::uint64_t seq_ = 0;
  room_part part_;        // the room part of the views, as last sent
  room_listing listing_;  // the summary and finished record, for any thread
  room_writes writes_;    // to the store, and the frames waiting for them
  room_saves saves_;      // the meta, the clock and the notices each write carries
  room_timer_ptr timer_;
  bot_turns bots_;           // the pending bot turn and takeover
  seat_clocks clocks_;       // the seats' clocks, their alarms, vacations
  seat_votes votes_;         // the take-back request and the rematch
  patch_throttle audience_;  // the spectators' count: at most a patch a second
};

}  // namespace carcassonne::server
