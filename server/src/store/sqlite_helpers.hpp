// Small wrappers over SQLite's C API shared by the SQLite store's files (store_sqlite.cpp reads
// and opens, store_sqlite_journal.cpp writes).
#pragma once
#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server::sqlite {

// A statement that finalizes itself.
struct statement {
  sqlite3_stmt* s = nullptr;
  statement(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &s, nullptr); }
  ~statement() { sqlite3_finalize(s); }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;
  explicit operator bool() const { return s != nullptr; }
};

inline std::string text_column(sqlite3_stmt* s, int i) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, i))) : std::string();
}

// The same, without a copy: valid until the statement steps again.
inline std::string_view text_view(sqlite3_stmt* s, int i) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
  return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(s, i)))
           : std::string_view();
}

inline void bind_text(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

// For a value that outlives the statement's step (the writer's binds): SQLite does not copy it.
inline void bind_static(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
}

inline bool exec(sqlite3* db, const char* sql, std::string* error = nullptr) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  if (rc != SQLITE_OK && error) *error = message ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  return rc == SQLITE_OK;
}

// Runs a prepared statement that returns no row and readies it for the next binds.
inline bool run(sqlite3_stmt* s) {
  const int rc = sqlite3_step(s);
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  return rc == SQLITE_DONE;
}

// The first column of the first row of a query, as text.
inline std::optional<std::string> scalar(sqlite3* db, const char* sql, std::string& error) {
  statement q(db, sql);
  if (!q) return error = sqlite3_errmsg(db), std::nullopt;
  const int rc = sqlite3_step(q.s);
  if (rc == SQLITE_ROW) return text_column(q.s, 0);
  if (rc == SQLITE_DONE) return std::string();
  error = sqlite3_errmsg(db);
  return std::nullopt;
}

}  // namespace carcassonne::server::sqlite
