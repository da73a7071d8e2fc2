// The SQLite implementation of the store (store.hpp): one file in WAL mode, a writer connection
// used by the writer thread only and a reader connection behind a mutex.
//
// A game's moves go to `journal`, a log in commit order, so that the moves of one commit (many
// rooms) share a page or two; a table keyed by room takes a page per room and commit (schema 1:
// about 25 pages for 14 moves). When the game ends its moves become one row of `games`, in the
// same transaction, and their journal rows are deleted later, oldest first, a few with every
// commit once they outnumber the live ones by a slack. The writer keeps which journal rows belong
// to which game in progress (`live_`), rebuilt from the file at open and after a failed commit.
#pragma once
#include <sqlite3.h>
#include <sys/stat.h>

#include <atomic>
#include <functional>
#include <optional>
#include <queue>
#include <thread>
#include <unordered_map>

#include "store/sqlite_helpers.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

namespace sqlite {

inline constexpr int schema_version = 3;

// Creates the tables in a new file, or converts a file of schema 1 (every move in a table keyed
// by room) in one transaction; sets the file's user_version. Schema 3 adds the index of finished
// games and the ratings (store/game_index.hpp), created in a file of schema 2 at open.
bool set_up_schema(sqlite3* db, int found_version, std::string& error);

// Appends one journal entry to `r`'s moves: false (with `error`) unless it is the next one.
bool append_entry(stored_room& r, std::int64_t n, std::uint64_t seq, nlohmann::json client_id,
                  nlohmann::json move, std::string& error);
// Appends an ended game's moves as `games` keeps them: a JSON array of [n, seq, client_id, move].
bool append_game_moves(stored_room& r, const std::string& text, std::string& error);

}  // namespace sqlite

class sqlite_store final : public store {
 public:
  static std::unique_ptr<store> open(const store_options& options, std::string& error);
  ~sqlite_store() override;

  std::vector<stored_room> unfinished_rooms(std::string& error) override;
  std::optional<stored_room> load(const std::string& id, std::string& error) override;
  void await_database_check() override;
  // The -shm guard below, for other connections to the same file (the notification worker's,
  // which reads every second): called before their reads. Thread-safe.
  void keep_shm_whole();

 private:
  sqlite_store();  // defined where write_statements is
  // Single instance: nothing is ever fenced.
  bool commit_batch(const std::vector<const store_write*>& batch, std::vector<char>& fenced,
                    std::string& error) override;
  bool probe(std::string& error) override;
  // False (with `error`) when the file at the path is no longer the one open (deleted or
  // replaced while the server runs: writes would go to a file nobody can open again).
  bool still_in_place(std::string& error);
  bool prepare_writes(std::string& error);  // the writer's statements and what it knows
  bool apply(const store_write& w, std::string& error);
  bool append_move(const move_write& w, std::string& error);
  template <typename Write>
  bool room_rows(const std::string& room, const Write& w, std::string& error);
  bool end_game(const std::string& room);
  void forget_moves(const std::string& room);
  bool trim_journal(std::size_t appended);
  bool rebuild_live(std::string& error);
  std::optional<stored_room> read_room(sqlite3_stmt* row, std::string& error);
  bool read_journal_of(stored_room& r, std::string& error);

  // A game in progress: its rows in `journal`, in order, the index its next move must have, and
  // its `games` row so far (the rows' entries, less the closing bracket): written as each move is
  // appended, so that the end of a game reads nothing back. Reading a game's rows back cost about
  // 5,000 instructions a move of it, and at 1,000 rooms its pages had left the cache.
  struct live_game {
    std::vector<std::int64_t> rows;
    std::int64_t next = 0;
    std::string moves;
  };
  std::unordered_map<std::string, live_game> live_;  // looked up by room, never iterated
  std::size_t live_rows_ = 0;
  // Journal rows of ended or forgotten games, oldest first.
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> dead_;
  // The last `ord` given to a room. Kept here: a MAX(ord) in every save read the whole index of
  // rooms (finished ones included, so it grew with every game the server ever held).
  std::int64_t last_ord_ = 0;

  struct write_statements;  // prepared once, used by the writer thread only
  std::unique_ptr<write_statements> statements_;
  std::string path_;
  struct file_id {
    dev_t device = 0;
    ino_t inode = 0;
    bool operator==(const file_id&) const = default;
  };
  std::optional<file_id> file_, wal_;  // what still_in_place compares with
  // SQLite maps the -shm file into memory: a file cut shorter under it (an outside truncate, a
  // cleaning tool) makes SQLite's next access to the cut part a SIGBUS, which would end the
  // process. Its size is checked before each commit and read, and given back when it shrank.
  std::atomic<std::int64_t> shm_size_{0};  // the largest size seen
  sqlite3* write_db_ = nullptr;
  sqlite3* read_db_ = nullptr;
  std::mutex read_mutex_;
  // The whole file's quick_check, on a connection and a thread of its own (store_sqlite.cpp).
  void start_database_check(const std::string& path);
  sqlite3* check_db_ = nullptr;
  std::thread check_;
};

}  // namespace carcassonne::server
