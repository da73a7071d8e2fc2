// The player store on the PostgreSQL database of the store: one connection of its own, one call at
// a time, made again when PostgreSQL ended it (a restart, an administrator), and the call retried
// once on the new one.
#include <libpq-fe.h>

#include <mutex>

#include "players/player_store_sql.hpp"
#include "store/game_index.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

namespace {

// The store's own lock number (store_postgres.cpp): servers starting together create the tables
// one after the other.
constexpr const char* schema_lock = "SELECT pg_advisory_xact_lock(7262053)";

PGconn* connect(const std::string& url, std::string& error) {
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

bool exec(PGconn* c, const char* sql, std::string& error) {
  PGresult* r = PQexec(c, sql);
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  PQclear(r);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return true;
  error = sql::one_line_message(c);
  return false;
}

class postgres_player_store final : public sql_player_store {
 public:
  postgres_player_store(std::string url, PGconn* c) : url_(std::move(url)), conn_(c) {}
  ~postgres_player_store() override { PQfinish(conn_); }

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
    conn_ = connect(url_, error);
    return conn_ != nullptr;
  }

  std::string url_;
  PGconn* conn_;
  std::mutex mutex_;
};

}  // namespace

std::unique_ptr<player_store> open_postgres_player_store(const std::string& url,
                                                         std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "database " + redacted_url(url) + ": " + what;
    return nullptr;
  };
  std::string why;
  PGconn* c = connect(url, why);
  if (!c) return fail("cannot connect: " + why + " (is PostgreSQL running?)");
  auto s = std::make_unique<postgres_player_store>(url, c);
  if (!exec(c, "BEGIN", why) || !exec(c, schema_lock, why) || !exec(c, players_schema, why) ||
      !exec(c, game_index_schema, why) || !exec(c, "COMMIT", why))
    return fail("cannot set up the players' tables: " + why);
  return s;
}

}  // namespace carcassonne::server
