// The lobby: every room of the server held in memory, each with the strand its calls run on.
// Thread-safe. Nothing here walks all rooms under the lobby's lock except a listing's copy of
// the public ones (and a vacation's of the correspondence rooms): rooms leave one at a time, each
// on its own timer (docs/hosting.md "Rooms").
#pragma once
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/config.hpp"
#include "base/metrics.hpp"
#include "bots/bot_pool.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "match/room_timer.hpp"
#include "room/room.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

struct room_entry {
  std::shared_ptr<room> game_room;
  // The room's handlers run one at a time here: a strand, or with one I/O thread the
  // io_context's own executor (serial_executor).
  boost::asio::any_io_executor strand;
  std::uint64_t order = 0;  // creation number: the key of the lobby's order
  bool is_public = true;
  // Arranged by the server (quick play, series, tournaments): never dropped to make space before
  // its game ends, as a series or a tournament waits for its result.
  bool arranged = false;
  // The lobby's own timer for this room (expiry, eviction checks); used on the room's strand.
  room_timer_ptr lobby_timer;
  room_timer::handle expiry = 0;
  bool queued_finished = false;  // in the lobby's queue of finished rooms (under its mutex)
  // Set (under the lobby's mutex) when the lobby lets go of this entry: a connection keeps the
  // entry of the room it is in to skip the lookup on every message, and trusts it only while
  // this is false.
  std::atomic<bool> dropped{false};
};

// Where handlers that must not run at the same time are run: a new strand, or, when one I/O
// thread runs everything (`--threads 1`), the executor itself: a strand would then only add a
// lock and a queue to every handler (docs/performance.md, "What makes it fast").
inline boost::asio::any_io_executor serial_executor(const boost::asio::any_io_executor& ex,
                                                    const config& c) {
  if (c.io_threads() == 1) return ex;
  return boost::asio::make_strand(ex);
}

class completion_queue;

class lobby {
 public:
  lobby(boost::asio::any_io_executor executor, const config& c, metrics& m)
      : executor_(std::move(executor)),
        config_(c),
        metrics_(m),
        bots_(std::make_unique<bot_pool>(c.bot_threads, c.bots_at_idle_priority, &m)),
        durable_(make_completion_queue(executor_)) {}
  ~lobby();  // detaches from the store first (lobby_storage.cpp)

  // Validates the settings (expansions, options, scripts) and creates a room; the answer is
  // the room's id or an error (bad_setup and the engine's setup codes, server_full).
  struct created {
    std::shared_ptr<room_entry> entry;
    protocol::proto_error error;
  };
  created create(const protocol::create_room_msg& m, std::weak_ptr<const client_link> creator);

  // A room the server makes for players it brought together (quick play, a series' game, a
  // tournament's table: competition/): `room_template` holds create_room's "setup", "match",
  // "spectator_delay" and "name" (all optional), its seats are taken in order (players by id,
  // bots by level; a player's seat has no token: its player resumes it signed in), and its game
  // starts at once. The room's id, or an error (the template's, server_full, storage_failed).
  struct arranged {
    std::string room;
    protocol::proto_error error;
  };
  arranged arrange(const nlohmann::json& room_template, const std::vector<seat_init>& seats,
                   bool rated, int bot_pause_ms);
  // On the room's strand: its seat of `player` resigns (room::resign_player), if the room is here.
  void resign_player(const std::string& room, const std::string& player);
  // The template's error, if any (bad_setup, bad_match_options, the engine's setup codes).
  std::optional<protocol::proto_error> check_template(const nlohmann::json& room_template,
                                                      int seats) const;

  // Rooms are written to `s` from now on (nullptr: memory only). Call before any room exists.
  void attach_store(store* s);
  // Rebuilds every unfinished room of the store (server start). False, with a message, when a
  // stored room cannot be rebuilt: the server must not start without it.
  bool restore(std::string& error);

  // A game's record (game-record.md) once it is finished, from memory or from the store.
  // unreadable: the store holds something under that id but cannot give it back now (it fails,
  // or the stored game is damaged: the log says which).
  enum class record_status { found, not_finished, unknown, unreadable };
  record_status finished_record(const std::string& id, nlohmann::json& record) const;

  std::shared_ptr<room_entry> find(const std::string& id) const;
  // find(), or a finished room rebuilt from the store (for join, spectate, resume after it left
  // memory); it leaves memory again once nobody is in it. `unfinished_elsewhere`, when given,
  // says whether the store holds the room unfinished though it is not here (in a cluster: a dead
  // instance's room that no instance has adopted yet).
  // `unreadable`, when given, says whether the store failed to give the room back (it fails, or
  // the stored game does not rebuild).
  std::shared_ptr<room_entry> find_or_load(const std::string& id,
                                           bool* unfinished_elsewhere = nullptr,
                                           bool* unreadable = nullptr);

  // One page of the public rooms, oldest first, and how many match the filter in all.
  struct page {
    nlohmann::json rooms = nlohmann::json::array();
    std::size_t total = 0;
  };
  page list(const protocol::room_filter& filter) const;

  // On the room's strand, after a connection left the room: a room nobody can come back to
  // leaves memory (a finished one once its record is stored), and a waiting room nobody is
  // connected to starts its expiry.
  void room_left(const std::string& id);
  std::size_t size() const;
  // Forgets every room (server teardown, after the I/O threads have stopped).
  void clear();
  // A cluster (lobby_cluster.cpp, docs/scaling.md "Failover"). Rebuilds `stored`, a room adopted
  // from a dead instance, whose writes carry `generation`; false with a message when it does not
  // replay or is here already.
  bool adopt(const stored_room& stored, std::uint64_t generation, std::string& error);
  // Another instance owns the room now: it stops here without writing and leaves memory.
  void lease_lost(const std::string& id);
  // The database (lobby_storage.cpp, docs/hosting.md "When the database fails"). A room whose
  // change could not be stored has stopped (room::storage_lost): it leaves memory and waits here
  // until the store answers again, then it is rebuilt from what the store holds. Meanwhile a
  // join, spectate or resume of it answers room_unavailable.
  bool awaiting_store(const std::string& id) const;
  // Rebuilds the rooms awaiting the store (on the store's writer thread, once it answers).
  void revive_rooms();
  // Takes the lease of a room the lobby makes by itself (a rematch), outside the lobby's lock.
  void set_claimer(std::function<void(const std::string& id)> claim) { claim_ = std::move(claim); }
  // Gives up the lease of a room that left memory for good (finished and stored, closed, expired,
  // dropped to make space); not of one another instance took or one awaiting its database. Called
  // under the lobby's lock: it must not block.
  void set_releaser(std::function<void(const std::string& id)> release) {
    release_ = std::move(release);
  }
  // Stops the bots' workers (server teardown, before clear()).
  void stop_bots() { bots_->stop(); }
  // Every running clock written to the store (server stop, after the I/O threads have stopped).
  void save_clocks();

  // Vacation (docs/protocol.md §21). `f` asks the players' store when a player's vacation ends
  // (Unix ms, 0: not on vacation; ok false: it cannot say now) and calls back from any thread;
  // every room gets it to ask with. Set before any room exists.
  using vacation_reply = std::function<void(std::int64_t until_ms, bool ok)>;
  void set_vacation_lookup(std::function<void(const std::string& player, vacation_reply)> f) {
    vacation_lookup_ = std::move(f);
  }
  // Every room here that holds clocks for vacations learns, on its strand, that `player`'s
  // vacation ends at `until_ms` (Unix ms; 0 or past: it is over). Any thread.
  void vacation_changed(const std::string& player, std::int64_t until_ms);

 private:
  // create_room's settings checked (room id, seed and secret not yet drawn).
  struct checked {
    room_settings settings;
    protocol::proto_error error;
  };
  checked check(const protocol::create_room_msg& m) const;
  static protocol::create_room_msg from_template(const nlohmann::json& t, int seats);
  bool make_space();  // under mutex_: drops one room nobody is connected to, looking at a few
  std::shared_ptr<room_entry> add(std::shared_ptr<room> r);  // under mutex_
  seat_clocks::vacation_lookup vacation_lookup_for(const std::shared_ptr<room_entry>& entry);
  // A finished room's rematch: a new room with those seats, its game started; its id, or empty
  // when the server is full.
  std::string spawn_rematch(room_settings s, const std::vector<seat_init>& seats);
  void drop(const std::string& id, const char* why);    // under mutex_
  void let_go(const std::string& id, const char* why);  // drop() for good: the lease too
  void forget_stored(const room& r);  // a dropped room that was not finished leaves the store too
  void check_idle(const std::shared_ptr<room_entry>& e);    // on e's strand
  void storage_lost(const std::shared_ptr<room_entry>& e);  // on e's strand
  void arm_expiry(const std::shared_ptr<room_entry>& e);    // on e's strand (or before it runs)

  boost::asio::any_io_executor executor_;
  const config& config_;
  metrics& metrics_;
  store* store_ = nullptr;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<room_entry>> rooms_;
  std::map<std::uint64_t, std::string> order_;  // creation order, for listing and eviction
  std::uint64_t next_order_ = 0;
  // Finished rooms that stay in memory (no store, or the record not yet stored), oldest first:
  // the first to go when the server is full.
  std::deque<std::weak_ptr<room_entry>> finished_;
  std::unique_ptr<bot_pool> bots_;  // every room's bots think here
  // The journal's "durable" callbacks, handed to the I/O threads one batch per commit.
  static std::shared_ptr<completion_queue> make_completion_queue(boost::asio::any_io_executor e);
  std::shared_ptr<completion_queue> durable_;
  std::function<void(const std::string&)> claim_;    // set_claimer()
  std::function<void(const std::string&)> release_;  // set_releaser()
  std::function<void(const std::string&, vacation_reply)> vacation_lookup_;
  // Rooms stopped by a failed write, with the lease generation to rebuild them with.
  std::map<std::string, std::uint64_t> awaiting_store_;
};

}  // namespace carcassonne::server
