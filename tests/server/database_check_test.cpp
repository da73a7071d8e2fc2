// The SQLite file's checks: the tables a start reads (rooms, journal) before it, and the whole
// file after it, beside the server (store_sqlite.cpp), so that an archive of finished games does
// not delay the start.
#include <doctest/doctest.h>

#include <fstream>

#include "sqlite_support.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace carcassonne::server;
using carcassonne::server::test::journal_commit;
using carcassonne::server::test::journal_sql;
using carcassonne::server::test::temp_dir;

namespace {

// A file with a finished game (a `games` row) and a game in progress (journal rows).
void write_rooms(const std::string& path) {
  std::string error;
  auto s = store::open({path, false}, error);
  REQUIRE_MESSAGE(s, error);
  for (const char* id : {"done", "playing"}) {
    REQUIRE(journal_commit(*s, save_room_write{id, room_state::playing, "{}"}));
    for (int n = 0; n < 3; ++n)
      REQUIRE(journal_commit(
          *s, move_write{id, n, R"({"n":1})", "null", static_cast<std::uint64_t>(n)}));
  }
  REQUIRE(journal_commit(*s, save_room_write{"done", room_state::finished, "{}"}));
}

// Overwrites the page-type byte of `table`'s root page (its only page in these small files).
void damage(const std::string& path, const char* table) {
  const auto page_size = journal_sql(path, "PRAGMA page_size");
  const auto root = journal_sql(
      path,
      (std::string("SELECT rootpage FROM sqlite_schema WHERE name = '") + table + "'").c_str());
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
