// The player store on the SQLite file of the store: a connection of its own (WAL lets its reads
// run beside the store's writer; its writes wait for the writer's lock up to busy_timeout).
#include <sqlite3.h>

#include <filesystem>
#include <mutex>

#include "players/player_store_sql.hpp"
#include "store/game_index.hpp"
#include "store/sqlite_helpers.hpp"

namespace carcassonne::server {

namespace {

class sqlite_player_store final : public sql_player_store {
 public:
  explicit sqlite_player_store(sqlite3* db) : db_(db), connection_(db) {}
  ~sqlite_player_store() override {
    connection_.reset();  // its statements finalized before the connection closes
    sqlite3_close(db_);
  }

 protected:
  bool with_connection(const work_fn& work, std::string& error) override {
    std::lock_guard lock(mutex_);
    return work(*connection_, error);
  }

 private:
  sqlite3* db_;
  std::optional<sql::sqlite_connection> connection_;
  std::mutex mutex_;
};

}  // namespace

std::unique_ptr<player_store> open_sqlite_player_store(const std::string& path,
                                                       std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "database " + path + ": " + what;
    return nullptr;
  };
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) return fail("cannot create the directory " + dir.string() + ": " + ec.message());
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return fail("cannot open: " + why);
  }
  auto s = std::make_unique<sqlite_player_store>(db);
  sqlite3_busy_timeout(db, 5000);
  std::string why;
  const auto mode = sqlite::scalar(db, "PRAGMA journal_mode=WAL", why);
  if (!mode) return fail(why + " (not an SQLite database?)");
  if (*mode != "wal") return fail("cannot switch to WAL mode (journal_mode is " + *mode + ")");
  // The store's tables too: the pages read them, whichever of the two opens the file first.
  if (!sqlite::exec(db, "BEGIN IMMEDIATE", &why)) return fail(why);
  if (!sqlite::exec(db, players_schema, &why) || !sqlite::exec(db, game_index_schema, &why) ||
      !sqlite::exec(db, "COMMIT", &why)) {
    sqlite::exec(db, "ROLLBACK");
    return fail("cannot set up the players' tables: " + why);
  }
  return s;
}

}  // namespace carcassonne::server
