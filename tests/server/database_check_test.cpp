// The SQLite file's checks: the tables a start reads (rooms, journal) before it, and the whole
// file after it, beside the server (store_sqlite.cpp), so that an archive of finished games does
// not delay the start.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <fstream>

#include "carcassonne/server/store.hpp"
#include "temp_dir.hpp"

using namespace carcassonne::server;
using carcassonne::server::test::temp_dir;

namespace {

bool commit(store& s, store_write w) {
  bool ok = false;
  s.submit(std::move(w), [&ok](bool durable) { ok = durable; });
  s.flush();
  return ok;
}

// A file with a finished game (a `games` row) and a game in progress (journal rows).
void write_rooms(const std::string& path) {
  std::string error;
  auto s = store::open({path, false}, error);
  REQUIRE_MESSAGE(s, error);
  for (const char* id : {"done", "playing"}) {
    REQUIRE(commit(*s, save_room_write{id, room_state::playing, "{}"}));
    for (int n = 0; n < 3; ++n)
      REQUIRE(commit(*s, move_write{id, n, R"({"n":1})", "null", static_cast<std::uint64_t>(n)}));
  }
  REQUIRE(commit(*s, save_room_write{"done", room_state::finished, "{}"}));
}

// Overwrites the page-type byte of `table`'s root page (its only page in these small files).
void damage(const std::string& path, const char* table) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  const auto number = [&](const std::string& sql) {
    sqlite3_stmt* q = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(q) == SQLITE_ROW);
    const auto v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return v;
  };
  const auto page_size = number("PRAGMA page_size");
  const auto root =
      number(std::string("SELECT rootpage FROM sqlite_schema WHERE name = '") + table + "'");
  sqlite3_close(db);
  REQUIRE(root > 1);
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp((root - 1) * page_size);
  f.put(static_cast<char>(0xff));
}

}  // namespace

TEST_CASE("a sound file is checked whole after the start") {
  temp_dir dir;
  write_rooms(dir.db());
  std::string error;
  auto s = store::open({dir.db(), false}, error);
  REQUIRE_MESSAGE(s, error);
  s->await_database_check();
  CHECK(s->database_check.load() == 1);
  CHECK(s->unfinished_rooms(error).size() == 1);
}

TEST_CASE("damaged stored games do not stop the start; the check after it reports them") {
  temp_dir dir;
  write_rooms(dir.db());
  damage(dir.db(), "games");
  std::string error;
  auto s = store::open({dir.db(), false}, error);
  REQUIRE_MESSAGE(s, error);
  const auto rooms = s->unfinished_rooms(error);  // the game in progress comes back
  REQUIRE_MESSAGE(rooms.size() == 1, error);
  CHECK(rooms[0].moves.size() == 3);
  s->await_database_check();
  CHECK(s->database_check.load() == -1);
}

TEST_CASE("damaged rooms or journal stop the start with a message") {
  for (const char* table : {"rooms", "journal"}) {
    CAPTURE(table);
    temp_dir dir;
    write_rooms(dir.db());
    damage(dir.db(), table);
    std::string error;
    CHECK_FALSE(store::open({dir.db(), false}, error));
    CHECK(error.find("damaged: quick_check says") != std::string::npos);
  }
}
