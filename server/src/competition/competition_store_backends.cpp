// The competition store on either database of the store, with a connection of its own: on the
// SQLite file (WAL lets its reads run beside the store's writer; its writes wait for the writer's
// lock up to busy_timeout), or on PostgreSQL (made again when PostgreSQL ended it, and the call
// retried once on the new one).
#include <libpq-fe.h>
#include <sqlite3.h>

#include <filesystem>
#include <mutex>

#include "competition/competition_store_sql.hpp"
#include "store/sqlite_helpers.hpp"
#include "store/store.hpp"

namespace carcassonne::server::competition {

namespace {

class sqlite_competition_store final : public sql_competition_store {
 public:
  explicit sqlite_competition_store(sqlite3* db) : db_(db), connection_(db) {}
  ~sqlite_competition_store() override {
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

// The store's own lock number (store_postgres.cpp): servers starting together create the tables
// one after the other.
constexpr const char* competition_schema_lock = "SELECT pg_advisory_xact_lock(7262053)";

PGconn* competition_connect(const std::string& url, std::string& error) {
  // connect_timeout: a database that does not answer fails the call instead of hanging it.
  const char* keys[] = {"dbname", "connect_timeout", nullptr};
  const char* values[] = {url.c_str(), "5", nullptr};
  PGconn* c = PQconnectdbParams(keys, values, 1);
  if (PQstatus(c) != CONNECTION_OK) {
    error = sql::one_line_message(c);
    PQfinish(c);
    return nullptr;
  }
  PQsetNoticeProcessor(
      c, [](void*, const char*) {}, nullptr);  // "already exists, skipping"
  return c;
}

bool competition_exec(PGconn* c, const char* sql, std::string& error) {
  PGresult* r = PQexec(c, sql);
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  PQclear(r);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return true;
  error = sql::one_line_message(c);
  return false;
}

class postgres_competition_store final : public sql_competition_store {
 public:
  postgres_competition_store(std::string url, PGconn* c) : url_(std::move(url)), conn_(c) {}
  ~postgres_competition_store() override { PQfinish(conn_); }

 protected:
  bool with_connection(const work_fn& work, std::string& error) override {
    std::lock_guard lock(mutex_);
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!usable(error)) return false;
      sql::postgres_connection c(conn_);
      error.clear();
      if (work(c, error)) return true;
      if (c.alive()) return false;  // answered, with an error or a refusal
    }
    return false;
  }

 private:
  bool usable(std::string& error) {
    if (conn_ && PQstatus(conn_) == CONNECTION_OK) return true;
    PQfinish(conn_);
    conn_ = competition_connect(url_, error);
    return conn_ != nullptr;
  }

  std::string url_;
  PGconn* conn_;
  std::mutex mutex_;
};

}  // namespace

std::unique_ptr<competition_store> open_sqlite_competition_store(const std::string& path,
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
  auto s = std::make_unique<sqlite_competition_store>(db);
  sqlite3_busy_timeout(db, 5000);
  std::string why;
  const auto mode = sqlite::scalar(db, "PRAGMA journal_mode=WAL", why);
  if (!mode) return fail(why + " (not an SQLite database?)");
  if (*mode != "wal") return fail("cannot switch to WAL mode (journal_mode is " + *mode + ")");
  if (!sqlite::exec(db, "BEGIN IMMEDIATE", &why)) return fail(why);
  if (!sqlite::exec(db, competition_schema, &why) || !sqlite::exec(db, "COMMIT", &why)) {
    sqlite::exec(db, "ROLLBACK");
    return fail("cannot set up the competitions' tables: " + why);
  }
  return s;
}

std::unique_ptr<competition_store> open_postgres_competition_store(const std::string& url,
                                                                   std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "database " + redacted_url(url) + ": " + what;
    return nullptr;
  };
  std::string why;
  PGconn* c = competition_connect(url, why);
  if (!c) return fail("cannot connect: " + why + " (is PostgreSQL running?)");
  auto s = std::make_unique<postgres_competition_store>(url, c);
  if (!competition_exec(c, "BEGIN", why) || !competition_exec(c, competition_schema_lock, why) ||
      !competition_exec(c, competition_schema, why) || !competition_exec(c, "COMMIT", why))
    return fail("cannot set up the competitions' tables: " + why);
  return s;
}

}  // namespace carcassonne::server::competition
