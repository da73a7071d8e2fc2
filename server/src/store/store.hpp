// Persistence (docs/hosting.md): every room — its settings and seats (tokens hashed) as one JSON
// row — and the journal of its accepted moves, in one of two databases behind one interface:
// SQLite in WAL mode (the default, a file in the data directory) or PostgreSQL
// (`--store postgresql://...`, docs/scaling.md).
//
// Writes are queued and committed by one writer thread, many at a time in one transaction (group
// commit), so a room never waits for another room's disk write. Each write's `done` runs on the
// writer thread once its transaction is durable (or failed); rooms hold every frame they would
// send until then, so no client ever sees a move that a crash could lose.
//
// Reads (the rooms to rebuild at start, a finished game's record) use their own connection and
// never wait for the writer (readers see the last committed state).
#pragma once
#include <iosfwd>
#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "store/room_state.hpp"

namespace carcassonne::server {

struct store_options {
  std::string path;       // the SQLite file, or a postgresql:// (postgres://) connection URL
  bool full_sync = true;  // SQLite synchronous=FULL / PostgreSQL synchronous_commit=on
};

// One accepted move as journaled.
struct journal_entry {
  nlohmann::json move;       // record form (game-record.md)
  nlohmann::json client_id;  // the request's id (null when it had none): duplicates after a restart
  std::uint64_t seq = 0;     // the room's sequence number of the move's patch
};

// A room as stored: `meta` is the room's own JSON (room::stored_meta), `moves` its journal.
struct stored_room {
  std::string id;
  room_state state = room_state::waiting;
  nlohmann::json meta;
  std::vector<journal_entry> moves;
};

// The writes a room makes. `generation` is the fence of a cluster (docs/scaling.md): the lease
// generation the writing instance holds for the room; PostgreSQL refuses a write older than the
// room's recorded one. 0: no cluster, never fenced (and SQLite ignores it).
// A game's end, written with the room's last save in the same transaction: a row of the index of
// finished games (players' histories, the records API) and, when the game is rated, every seat's
// new rating in the game's pool (ratings/pools.hpp) with a point of history. A room is rated once:
// the same end written again (a retry, a failover that replays the last save) changes nothing.
struct game_end {
  std::int64_t finished_ms = 0;  // wall clock, for listings only
  std::string pool;              // ratings::pool_name; "" when the game is not rated
  struct seat {
    std::string player;  // "" a seat without an account (then the game is not rated)
    std::string name;
    int score = 0;
    bool forfeited = false;  // resigned, timed out or left: loses to those who did not
  };
  std::vector<seat> seats;
};

// Rows a room writes with a write, in its transaction, for the notifications (server/src/notify):
// `notice`s go to the outbox table `notifications` (store/notify_rows.hpp); a key already there is
// skipped, so a write replayed after a failure or a failover notifies nobody twice.
struct notice {
  std::string player;  // the account told
  std::string kind;    // your_turn, undo_requested, rematch_offered, game_over, tournament_round
  std::string key;     // idempotency: "<room>:<what>:<kind>:<player>", unique
  std::string room;
  std::string data;  // JSON object text (the room's name, the seat, the clock kind...)
};
// "My games": the room as its seated accounts list it, written when any of it changed. One row
// per seat with an account (`players`); a seat without one has none.
struct my_game {
  std::string name;
  std::string state;      // waiting, playing, finished
  int seats = 0;          // the room's number of seats (rows of seats beyond are removed)
  int acting = -1;        // the seat whose decision it is, -1 none
  std::int64_t turn = 0;  // the journal length when `acting` got the turn (your_turn's check)
  std::string clock;      // none, fischer, per_decision, correspondence
  std::int64_t deadline_ms = 0;  // wall clock of the acting seat's time running out, 0 none
  std::string seat_list;         // JSON text [{"name":..., "player":...|null}]
  std::string vacation = "[]";   // JSON text: the seats whose clocks a vacation pauses
  std::int64_t updated_ms = 0;
  std::vector<std::pair<int, std::string>> players;  // (seat, account)
};

struct save_room_write {  // insert or replace the room's row
  std::string id;
  room_state state = room_state::waiting;
  std::string meta;  // JSON text
  std::uint64_t generation = 0;
  std::optional<game_end> end;  // with the save that finishes the game
  std::vector<notice> notices;
  std::optional<my_game> mine;  // when it changed
};
struct move_write {  // append one move to the journal
  std::string room;
  std::int64_t index = 0;
  std::string move, client_id;
  std::uint64_t seq = 0;
  std::uint64_t generation = 0;
  std::vector<notice> notices;
  std::optional<my_game> mine;  // when it changed
};
struct delete_room_write {  // forget a room that nobody can come back to
  std::string id;
  std::uint64_t generation = 0;
};
using store_write = std::variant<save_room_write, move_write, delete_room_write>;
// The room a write belongs to.
const std::string& room_of(const store_write& w);

// True when `location` names a PostgreSQL database rather than an SQLite file.
bool is_postgres_url(const std::string& location);
// `url` with its password, if any, replaced by "***": for messages and logs.
std::string redacted_url(const std::string& url);

// What became of one write. Converts to `durable`, so that callbacks may take a bool.
struct write_result {
  bool durable = false;
  bool fenced = false;  // refused: another instance owns the room now (never stored)
  operator bool() const { return durable; }  // NOLINT: implicit on purpose
};

class store {
 public:
  using done_fn = std::function<void(write_result)>;

  // Opens (creating when missing) and checks the database; nothing on error, with a message
  // that names the database and says what to do. A file that is not an SQLite database, or a
  // database written by a newer version of the server, is an error: never an empty server.
  static std::unique_ptr<store> open(const store_options& options, std::string& error);
  virtual ~store();  // implementations call stop_writer() first: queued writes are committed
  store(const store&) = delete;
  store& operator=(const store&) = delete;

  // Queues a write; `done` runs on the writer thread after the commit, in queue order.
  void submit(store_write w, done_fn done);
  // Runs a function on the threads that submit (the server's I/O threads), after the handlers
  // already queued there.
  using wake_up_poster = std::function<void(std::function<void()>)>;
  // From now on a submit does not wake the writer itself: the first submit after a commit was
  // taken posts one wake-up through `post`, which runs after the handlers the I/O threads
  // already had queued (the rest of the frames one poll delivered). The moves that arrive
  // together are so committed together, instead of the first alone in a transaction and a sync
  // of its own. Without a poster (and in flush and at stop) the writer is woken at once. Called
  // before the first submit.
  void wake_through(wake_up_poster post);
  // Waits until every write queued so far has been committed and its `done` has run.
  void flush();

  // Faults (docs/hosting.md "When the database fails"). A failed commit fails every write of its
  // batch, and from then on every write of those rooms is refused untried, until readmit(): a
  // room whose change was lost must never store a later one on top of the gap. The store is
  // degraded from a failed commit until the database answers again: the writer probes it, with
  // a backoff from 50 ms to 5 s, reconnecting as needed; a commit that succeeds ends it too.
  bool degraded() const { return degraded_.load(); }
  // The last failure's message while degraded (for /healthz), else "".
  std::string fault() const;
  // Runs `f` on the writer thread whenever the database answers again after a failure, and after
  // request_recovery_call() once it answers. nullptr detaches it (a call under way ends first).
  void on_recovered(std::function<void()> f);
  void request_recovery_call();
  // Runs `f` on the writer thread after every commit that wrote notices (store/notify_rows.hpp):
  // the notification worker is woken instead of finding them on its next poll.
  void on_notices(std::function<void()> f);
  // Writes of `room` are taken again; its writes still queued (of the room before the failure)
  // are refused first. Call when nothing of the old room can submit any more.
  void readmit(const std::string& room);

  // Reads. Thread-safe.
  virtual std::vector<stored_room> unfinished_rooms(
      std::string& error) = 0;  // with their journals, oldest first
  virtual std::optional<stored_room> load(const std::string& id, std::string& error) = 0;
  // The ids of the unfinished rooms (the rooms a cluster may have to adopt); empty with `error`
  // when the database cannot be read.
  virtual std::vector<std::string> unfinished_ids(std::string& error);

  // A cluster's fence (docs/scaling.md): records, committed, that `generation` owns `room`, so
  // that every write of an older generation is refused from now on; false when a newer
  // generation is recorded or the database fails (`error`). SQLite, single instance: true.
  virtual bool take_room(const std::string& room, std::uint64_t generation, std::string& error);
  // The generation recorded for `room` (0: none, or SQLite).
  virtual std::uint64_t recorded_generation(const std::string& room, std::string& error);

  // Copies the SQLite database at `source` to the new file `dest` with SQLite's online backup
  // API: a consistent copy while a server writes to it (it never waits for the copy). Checks the
  // copy and counts its rooms; false with a message on any error (`dest` already existing too).
  static bool backup(const std::string& source, const std::string& dest, std::size_t& rooms,
                     std::string& error);

  // Counters for /metrics.
  std::atomic<std::int64_t> commits{0}, writes{0}, failures{0};
  std::atomic<std::int64_t> commit_ns{0};
  // The check of the whole database that SQLite runs after the start, beside the server: 0 not
  // made (PostgreSQL) or not finished, 1 sound, -1 damaged.
  std::atomic<int> database_check{0};
  // Waits for that check to end (tests); returns at once when there is none.
  virtual void await_database_check() {}

 protected:
  store() = default;
  void start_writer();
  void stop_writer();  // commits what is queued, then joins the writer; idempotent
  // On the writer thread while degraded: reconnects if needed and checks that the database takes
  // a write now; false with `error` when it does not.
  virtual bool probe(std::string& error) = 0;
  // Commits `batch` in one transaction on the writer thread; false (with `error`) rolls it back.
  // A write refused by its fence is skipped (the rest commits) and marked in `fenced`, which has
  // one entry per write, all false on entry.
  virtual bool commit_batch(const std::vector<const store_write*>& batch, std::vector<char>& fenced,
                            std::string& error) = 0;

 private:
  void writer_loop();
  void set_degraded(bool on, const std::string& why);
  void call_recovered();

  mutable std::mutex mutex_;
  std::condition_variable wake_, drained_;
  std::deque<std::pair<store_write, done_fn>> queue_;
  std::uint64_t queued_ = 0, completed_ = 0;
  bool stopping_ = false;
  wake_up_poster wake_up_;
  bool wake_up_posted_ = false;         // a wake-up is on its way through wake_up_
  bool may_take_ = false;               // the writer may take what is queued
  std::set<std::string> failed_rooms_;  // rooms whose writes are refused untried (readmit)
  std::atomic<bool> degraded_{false};
  std::string fault_;           // under mutex_
  std::mutex recovered_mutex_;  // held while recovered_ runs, and to change it
  std::function<void()> recovered_;
  std::function<void()> notices_written_;  // under recovered_mutex_
  bool recovery_call_ = false;             // request_recovery_call() waits for the writer
  std::thread writer_;
};

// The store's counters for /metrics (Prometheus text), written after the process's own.
void render_store_metrics(const store& db, std::ostream& o);

}  // namespace carcassonne::server
