// A room: seats, spectators and one game. Not thread-safe by itself: the server runs each room's
// calls on the room's own strand (so rooms never block each other); tests call it directly.
// A room talks to connections only through client_link.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "carcassonne/server/metrics.hpp"
#include "carcassonne/server/room_timer.hpp"
#include "carcassonne/server/store.hpp"

namespace carcassonne::server {

using json = nlohmann::json;
using frame_ptr = std::shared_ptr<const std::string>;

// What a room needs from a connection. Both calls are thread-safe and never block.
class client_link {
 public:
  virtual ~client_link() = default;
  // Queues one text frame (a slow client may be dropped instead; the room goes on).
  virtual void deliver(frame_ptr frame) = 0;
  // The connection entered (member) or left (!member) the room. Calls from different rooms
  // may arrive in any order: leaving only clears the connection's room if it is that room.
  virtual void set_room(const std::string& room_id, bool member) = 0;
};
using client_ptr = std::shared_ptr<client_link>;

struct room_settings {
  std::string id;
  std::string name;
  bool is_public = true;
  int seats = 4;
  int spectator_delay = 0;
  std::size_t max_spectators = 64;
  json setup;        // expansions, options and, when allowed, seed and script
  std::string seed;  // chosen by the server unless setup has one
};

// What the lobby lists; readable from any thread.
struct room_summary {
  std::string id, name, state;
  bool is_public = true;
  int seats = 0, taken = 0, spectators = 0, spectator_delay = 0;
  int connections = 0;  // connected seats and spectators
  json players = json::array();
  json expansions = json::array();
  json to_json() const;
};

class room {
 public:
  room(room_settings settings, metrics* m, std::weak_ptr<const client_link> creator);
  // Rebuilds a stored room by replaying its journal through the engine (server start); nothing,
  // with a message naming the room and the move, when the stored game does not replay.
  static std::unique_ptr<room> restore(const stored_room& stored, metrics* m, std::string& error);

  // Makes the room durable: every change is written to `s` before any frame that shows it leaves
  // (frames wait in the room's outbox). `post` runs a function on the room's strand.
  using poster = std::function<void(std::function<void()>)>;
  void attach_store(store* s, poster post);
  // Gives the room its time (bot pauses, clocks, takeovers): callbacks run on the room's strand.
  // A room without a timer never acts on its own.
  void attach_timer(room_timer_ptr t) { timer_ = std::move(t); }

  // Room-strand calls: one per client message, plus disconnected().
  void join(const client_ptr& c, const protocol::join_msg& m, const json& id);
  void spectate(const client_ptr& c, const json& id);
  void resume(const client_ptr& c, const protocol::resume_msg& m, const json& id);
  void leave(const client_ptr& c, const json& id);
  void start(const client_ptr& c, const json& id);
  void move(const client_ptr& c, const protocol::move_msg& m, const json& id);
  void chat(const client_ptr& c, const protocol::chat_msg& m, const json& id);
  void snapshot(const client_ptr& c, const json& id);
  void disconnected(const client_ptr& c);

  // Thread-safe.
  room_summary summary() const;
  const std::string& id() const { return settings_.id; }
  // No connection, and nobody can come back (waiting room emptied, or game over).
  bool abandoned() const;

  // Room-strand reads, for tests and the record endpoint.
  const game_state* game() const { return game_ ? &*game_ : nullptr; }
  std::uint64_t seq() const { return seq_; }
  // Writes issued to the store and not yet durable (the lobby keeps the room until none are).
  bool writes_pending() const { return writes_durable_ < writes_issued_; }
  json record() const;  // setup + moves (game-record.md); the seed is inside: finished games only
  // Thread-safe: the record once the game is over, else nothing.
  std::optional<json> finished_record() const;
  // What the store keeps of the room besides its journal (settings, seats with hashed tokens).
  json stored_meta() const;

 private:
  static constexpr std::size_t answers_kept = 32;  // per seat, for duplicate moves

  struct seat_slot {
    bool taken = false;
    std::string name;
    std::string token_hash;  // sha256 of the seat token: the token itself is never kept
    client_ptr client;
    std::deque<std::pair<json, frame_ptr>> answered;  // client id -> answer (duplicates)
    protocol::view_doc private_view;                  // last private part sent
  };

  int seat_of(const client_link* c) const;
  bool is_spectator(const client_link* c) const;
  // Every frame leaves through here: held while a write that it may show is not yet durable.
  void out(const client_ptr& c, frame_ptr frame);
  void persist(store_write w);
  void persist_meta();
  void on_durable(std::uint64_t n, bool ok);
  void send(const client_ptr& c, const json& message);
  void answer(const client_ptr& c, int seat, const json& id, const json& message);
  void fail(const client_ptr& c, const json& id, std::string code, std::string message);

  json room_info() const;
  std::string view_text(int seat);  // the whole view of a seat (or spectator, -1), as sent
  void send_snapshot(const client_ptr& c, int seat, const json& id);
  void broadcast(const event_log& events);
  void advance_spectators();
  void publish_summary();

  room_settings settings_;
  metrics* metrics_;
  bool is_creator(const client_link* c) const {
    const auto p = creator_.lock();  // a dead connection's address may be reused
    return p && p.get() == c;
  }
  std::weak_ptr<const client_link> creator_;  // the connection that created the room
  int creator_seat_ = -1;                     // the seat it took (start rights follow it)
  std::vector<seat_slot> seats_;
  std::vector<client_ptr> spectators_;

  std::optional<game_state> game_;
  std::vector<std::string> names_;
  json record_setup_;
  std::vector<json> journal_;                 // accepted moves in record form
  std::optional<game_state> spectator_game_;  // lags spectator_delay moves behind
  std::size_t spectator_moves_ = 0;
  std::uint64_t seq_ = 0;

  json info_;                            // last room part sent
  protocol::view_doc public_;            // last public game view sent to seats
  protocol::view_doc spectator_public_;  // last public view sent to delayed spectators
  // What spectators see: the seats' public part, or the delayed one.
  const protocol::view_doc& spectator_doc() const {
    return spectator_game_ ? spectator_public_ : public_;
  }

  // Persistence (attach_store): writes issued and known durable, and the frames held meanwhile.
  struct held_frame {
    std::uint64_t needs;
    client_ptr client;
    frame_ptr frame;
  };
  store* store_ = nullptr;
  poster post_;
  room_timer_ptr timer_;
  std::uint64_t writes_issued_ = 0, writes_durable_ = 0;
  std::deque<held_frame> outbox_;
  bool storage_failed_ = false;

  mutable std::mutex summary_mutex_;
  room_summary summary_;
  std::optional<json> finished_record_;  // under summary_mutex_
};

}  // namespace carcassonne::server
