#include "store/sql_database.hpp"

#include <libpq-fe.h>
#include <sqlite3.h>

#include <filesystem>
#include <mutex>
#include <optional>
#include <vector>

#include "store/sqlite_helpers.hpp"
#include "store/store.hpp"

namespace carcassonne::server::sql {

namespace {

class sqlite_database final : public database {
 public:
  explicit sqlite_database(sqlite3* db) : db_(db), connection_(db) {}
  ~sqlite_database() override {
    connection_.reset();  // its statements finalized before the connection closes
    sqlite3_close(db_);
  }
  bool with_connection(const work_fn& work, std::string& error) override {
    std::lock_guard lock(mutex_);
    return work(*connection_, error);
  }

 private:
  sqlite3* db_;
  std::optional<sqlite_connection> connection_;
  std::mutex mutex_;
};

// The store's own lock number (store_postgres.cpp).
constexpr const char* schema_lock = "SELECT pg_advisory_xact_lock(7262053)";

PGconn* connect(const std::string& url, std::string& error) {
  // connect_timeout: a database that does not answer fails the call instead of hanging it.
  const char* keys[] = {"dbname", "connect_timeout", nullptr};
  const char* values[] = {url.c_str(), "5", nullptr};
  PGconn* c = PQconnectdbParams(keys, values, 1);
  if (PQstatus(c) != CONNECTION_OK) {
    error = one_line_message(c);
    PQfinish(c);
    return nullptr;
  }
  PQsetNoticeProcessor(
      c, [](void*, const char*) {}, nullptr);  // "already exists, skipping"
  return c;
}

bool exec(PGconn* c, const char* sql, std::string& error) {
  PGresult* r = PQexec(c, sql);
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  PQclear(r);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return true;
  error = one_line_message(c);
  return false;
}

class postgres_database final : public database {
 public:
  postgres_database(std::string url, PGconn* c) : url_(std::move(url)), conn_(c) {}
  ~postgres_database() override { PQfinish(conn_); }
  bool with_connection(const work_fn& work, std::string& error) override {
    std::lock_guard lock(mutex_);
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!usable(error)) return false;
      postgres_connection c(conn_);
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
    conn_ = connect(url_, error);
    return conn_ != nullptr;
  }

  std::string url_;
  PGconn* conn_;
  std::mutex mutex_;
};

std::unique_ptr<database> open_sqlite(const std::string& path,
                                      std::initializer_list<const char*> schemas,
                                      const std::string& tables, std::string& error) {
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
  auto d = std::make_unique<sqlite_database>(db);
  sqlite3_busy_timeout(db, 5000);
  std::string why;
  const auto mode = sqlite::scalar(db, "PRAGMA journal_mode=WAL", why);
  if (!mode) return fail(why + " (not an SQLite database?)");
  if (*mode != "wal") return fail("cannot switch to WAL mode (journal_mode is " + *mode + ")");
  if (!sqlite::exec(db, "BEGIN IMMEDIATE", &why)) return fail(why);
  for (const char* schema : schemas)
    if (!sqlite::exec(db, schema, &why)) {
      sqlite::exec(db, "ROLLBACK");
      return fail("cannot set up " + tables + ": " + why);
    }
  if (!sqlite::exec(db, "COMMIT", &why)) {
    sqlite::exec(db, "ROLLBACK");
    return fail("cannot set up " + tables + ": " + why);
  }
  return d;
}

std::unique_ptr<database> open_postgres(const std::string& url,
                                        std::initializer_list<const char*> schemas,
                                        const std::string& tables, std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "database " + redacted_url(url) + ": " + what;
    return nullptr;
  };
  std::string why;
  PGconn* c = connect(url, why);
  if (!c) return fail("cannot connect: " + why + " (is PostgreSQL running?)");
  auto d = std::make_unique<postgres_database>(url, c);
  bool ok = exec(c, "BEGIN", why) && exec(c, schema_lock, why);
  for (const char* schema : schemas) ok = ok && exec(c, schema, why);
  if (!ok || !exec(c, "COMMIT", why)) return fail("cannot set up " + tables + ": " + why);
  return d;
}

}  // namespace

std::unique_ptr<database> database::open(const std::string& location,
                                         std::initializer_list<const char*> schemas,
                                         const std::string& tables, std::string& error) {
  return is_postgres_url(location) ? open_postgres(location, schemas, tables, error)
                                   : open_sqlite(location, schemas, tables, error);
}

}  // namespace carcassonne::server::sql
