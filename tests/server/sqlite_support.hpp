// Helpers of the SQLite store's tests: one write committed alone, and a value read from the file
// with a connection of its own (as a separate reader, or the sqlite3 shell, sees it).
#pragma once
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "store/store.hpp"

namespace carcassonne::server::test {

// The first column of the first row, read with a connection of its own.
inline std::int64_t journal_sql(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql, -1, &q, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(q) == SQLITE_ROW);
  const auto value = sqlite3_column_int64(q, 0);
  sqlite3_finalize(q);
  sqlite3_close(db);
  return value;
}

// Whether one write, alone in its transaction, committed.
inline bool journal_commit(store& s, store_write w) {
  bool ok = false;
  s.submit(std::move(w), [&ok](bool durable) { ok = durable; });
  s.flush();
  return ok;
}

}  // namespace carcassonne::server::test
