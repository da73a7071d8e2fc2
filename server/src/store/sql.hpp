// One small interface over both databases for the statements that read and write the same tables
// in the same SQL (the index of finished games, ratings, the players' tables): parameters are
// written $1, $2, ... (SQLite binds them by name), results come back typed. The writer's hot path
// (rooms, journal) keeps its own statements; this serves what is written once per game or per
// account. Not thread-safe: one user at a time (the store's writer, or a caller's mutex).
#pragma once
#include <libpq-fe.h>
#include <sqlite3.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace carcassonne::server::sql {

using value = std::variant<std::nullptr_t, std::int64_t, double, std::string>;

// Rows of cells. PostgreSQL's come as text (doubles in their shortest exact form), SQLite's typed;
// the accessors convert either way.
struct rows {
  std::vector<std::vector<value>> cells;
  std::size_t size() const { return cells.size(); }
  bool empty() const { return cells.empty(); }
  bool is_null(std::size_t row, std::size_t col) const;
  std::string text(std::size_t row, std::size_t col) const;
  std::int64_t integer(std::size_t row, std::size_t col) const;
  double real(std::size_t row, std::size_t col) const;
};

class connection {
 public:
  virtual ~connection() = default;
  // Runs one statement; its rows (none for a write), or nothing with `error`. `changed`: the rows
  // an INSERT/UPDATE/DELETE changed. `unique_violation`: set when the statement broke a UNIQUE
  // or PRIMARY KEY constraint (a name taken), which callers tell apart from a failure.
  struct outcome {
    std::int64_t changed = 0;
    bool unique_violation = false;
  };
  virtual std::optional<rows> run(const char* sql, std::initializer_list<value> params,
                                  std::string& error, outcome* out = nullptr) = 0;
  // A transaction that writes: SQLite's BEGIN IMMEDIATE (takes the write lock at once, so two
  // connections never deadlock upgrading a read), PostgreSQL's BEGIN.
  virtual bool begin_write(std::string& error) = 0;
  // A transaction that reads several statements in one snapshot.
  virtual bool begin_read(std::string& error) = 0;
  virtual bool commit(std::string& error) = 0;
  virtual void rollback() = 0;
  // PostgreSQL: several servers write the same rows, so reads meant for an update lock them
  // (SELECT ... FOR UPDATE). SQLite has one writer at a time: no row locks.
  virtual bool row_locks() const = 0;
  // False when the connection is lost (PostgreSQL ended it): the caller reconnects.
  virtual bool alive() const { return true; }
};

// SQLite, on a connection it does not own; statements are prepared once and kept (by the address
// of their text, which must be a literal).
class sqlite_connection final : public connection {
 public:
  explicit sqlite_connection(sqlite3* db) : db_(db) {}
  ~sqlite_connection() override;
  sqlite_connection(const sqlite_connection&) = delete;
  sqlite_connection& operator=(const sqlite_connection&) = delete;
  std::optional<rows> run(const char* sql, std::initializer_list<value> params, std::string& error,
                          outcome* out = nullptr) override;
  bool begin_write(std::string& error) override;
  bool begin_read(std::string& error) override;
  bool commit(std::string& error) override;
  void rollback() override;
  bool row_locks() const override { return false; }

 private:
  sqlite3* db_;
  std::unordered_map<const char*, sqlite3_stmt*> prepared_;
};

// PostgreSQL (libpq), on a connection it does not own: each statement with PQexecParams.
class postgres_connection final : public connection {
 public:
  explicit postgres_connection(PGconn* c) : c_(c) {}
  std::optional<rows> run(const char* sql, std::initializer_list<value> params, std::string& error,
                          outcome* out = nullptr) override;
  bool begin_write(std::string& error) override;
  bool begin_read(std::string& error) override;
  bool commit(std::string& error) override;
  void rollback() override;
  bool row_locks() const override { return true; }
  bool alive() const override { return PQstatus(c_) == CONNECTION_OK; }

 private:
  PGconn* c_;
};

// libpq's message on one line (it spans lines: "ERROR:  ...\nDETAIL:  ...").
std::string one_line_message(PGconn* c);

}  // namespace carcassonne::server::sql
