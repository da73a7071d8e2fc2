// The SQLite store's move tables (store_sqlite.hpp): games in progress in `journal`, in commit
// order; an ended game's moves in one row of `games`, written when it ends; the journal trimmed
// oldest first; the writer's check that a move is its game's next; files of schema 1.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <mutex>

#include "sqlite_support.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace carcassonne::server;
using carcassonne::server::test::journal_commit;
using carcassonne::server::test::journal_sql;
using carcassonne::server::test::temp_dir;
using nlohmann::json;

namespace {

std::unique_ptr<store> journal_store(const std::string& path) {
  std::string error;
  auto s = store::open({path, false}, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

move_write journal_move(const std::string& room, std::int64_t n) {
  return {room, n, json{{"n", n}}.dump(), json(n).dump(), static_cast<std::uint64_t>(n + 1)};
}

void check_moves(const stored_room& r, std::size_t count) {
  REQUIRE(r.moves.size() == count);
  for (std::size_t i = 0; i < count; ++i) {
    CHECK(r.moves[i].move == json{{"n", i}});
    CHECK(r.moves[i].client_id == i);
    CHECK(r.moves[i].seq == i + 1);
  }
}

}  // namespace

TEST_CASE("sqlite: a game's moves are journaled in commit order, and are one row when it ends") {
  temp_dir dir;
  const auto db = dir.db();
  {
    auto s = journal_store(db);
    s->submit(save_room_write{"a", room_state::playing, "{}"}, nullptr);
    for (int i = 0; i < 1100; ++i) s->submit(journal_move("a", i), nullptr);
    s->flush();
    CHECK(journal_sql(db, "SELECT COUNT(*) FROM journal") == 1100);
    CHECK(journal_sql(db, "SELECT COUNT(*) FROM games") == 0);
    std::string error;
    auto a = s->load("a", error);  // a game in progress, from the journal
    REQUIRE_MESSAGE(a, error);
    check_moves(*a, 1100);

    REQUIRE(journal_commit(*s, save_room_write{"a", room_state::finished, "{}"}));
    CHECK(journal_sql(db, "SELECT json_array_length(moves) FROM games WHERE room = 'a'") == 1100);
    REQUIRE(journal_commit(*s, save_room_write{"b", room_state::playing, "{}"}));
    for (int i = 0; i < 20; ++i) REQUIRE(journal_commit(*s, journal_move("b", i)));
    // The ended game's rows go oldest first, with each commit, down to the live rows and a slack
    // of 1,024: 64 of them with the commit that ends it, 12 more with the next (0 live rows then).
    CHECK(journal_sql(db, "SELECT COUNT(*) FROM journal") == 20 + 1024);
    CHECK(journal_sql(db, "SELECT MIN(id) FROM journal") == 1100 - 1024 + 1);
    a = s->load("a", error);
    REQUIRE_MESSAGE(a, error);
    CHECK(a->state == room_state::finished);
    check_moves(*a, 1100);
  }
  // Reopened: the writer finds b's rows again and a's dead ones.
  auto s = journal_store(db);
  std::string error;
  auto rooms = s->unfinished_rooms(error);
  REQUIRE_MESSAGE(rooms.size() == 1, error);
  CHECK(rooms[0].id == "b");
  check_moves(rooms[0], 20);
  // A failed commit refuses the room's later writes untried until it is readmitted (rebuilt).
  CHECK_FALSE(journal_commit(*s, journal_move("b", 21)));  // a gap
  CHECK_FALSE(journal_commit(*s, journal_move("b", 20)));  // refused untried
  CHECK(s->failures.load() == 1);
  s->readmit("b");
  CHECK_FALSE(journal_commit(*s, journal_move("b", 19)));  // twice
  CHECK(s->failures.load() == 2);
  s->readmit("b");
  REQUIRE(journal_commit(*s, journal_move("b", 20)));  // what the writer knew was rolled back too
  REQUIRE(journal_commit(*s, save_room_write{"b", room_state::finished, "{}"}));
  auto b = s->load("b", error);
  REQUIRE_MESSAGE(b, error);
  check_moves(*b, 21);
  CHECK(s->unfinished_rooms(error).empty());
  CHECK(journal_sql(db, "SELECT SUM(json_array_length(moves)) FROM games") == 1121);
}

TEST_CASE("sqlite: a forgotten game's journal rows are dead, and no write of one batch is lost") {
  temp_dir dir;
  const auto db = dir.db();
  auto s = journal_store(db);
  s->submit(save_room_write{"gone", room_state::playing, "{}"}, nullptr);
  s->submit(save_room_write{"kept", room_state::playing, "{}"}, nullptr);
  std::vector<bool> results;
  std::mutex m;
  const auto note = [&](bool ok) {
    std::lock_guard lock(m);
    results.push_back(ok);
  };
  for (int i = 0; i < 5; ++i) {  // interleaved, as rooms write
    s->submit(journal_move("gone", i), note);
    s->submit(journal_move("kept", i), note);
  }
  s->submit(delete_room_write{"gone"}, note);
  s->flush();
  CHECK(results == std::vector<bool>(11, true));
  std::string error;
  CHECK_FALSE(s->load("gone", error));
  auto kept = s->load("kept", error);
  REQUIRE_MESSAGE(kept, error);
  check_moves(*kept, 5);
  s.reset();
  s = journal_store(db);  // gone's rows are dead at the rebuild: kept's stay live
  auto rooms = s->unfinished_rooms(error);
  REQUIRE(rooms.size() == 1);
  check_moves(rooms[0], 5);
  REQUIRE(journal_commit(*s, journal_move("kept", 5)));
}

// The writer numbers new rooms itself (a MAX over the rooms in every save read them all): the
// number goes on from the file's after reopening and after a failed commit.
TEST_CASE(
    "sqlite: rooms keep the order they were created in, across reopening and a failed commit") {
  temp_dir dir;
  const auto db = dir.db();
  auto s = journal_store(db);
  REQUIRE(journal_commit(*s, save_room_write{"b", room_state::waiting, "{}"}));
  REQUIRE(journal_commit(*s, save_room_write{"a", room_state::waiting, "{}"}));
  REQUIRE(journal_commit(*s, save_room_write{"b", room_state::playing, "{}"}));  // keeps its place
  s.reset();
  s = journal_store(db);
  REQUIRE(journal_commit(*s, save_room_write{"d", room_state::waiting, "{}"}));
  CHECK_FALSE(journal_commit(*s, journal_move("b", 3)));  // a gap: rolled back
  REQUIRE(journal_commit(*s, save_room_write{"c", room_state::waiting, "{}"}));
  REQUIRE(journal_commit(*s, save_room_write{"a", room_state::playing, "{}"}));
  s.reset();
  s = journal_store(db);
  std::string error;
  std::vector<std::string> order;
  for (const auto& r : s->unfinished_rooms(error)) order.push_back(r.id);
  CHECK(error.empty());
  CHECK(order == std::vector<std::string>{"b", "a", "d", "c"});
  CHECK(journal_sql(db, "SELECT COUNT(DISTINCT ord) FROM rooms") == 4);
}

namespace {

// The plan SQLite makes for `sql` on the file at `path`: its steps' texts, one per line.
std::string journal_plan(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, ("EXPLAIN QUERY PLAN " + sql).c_str(), -1, &q, nullptr) ==
          SQLITE_OK);
  std::string plan;
  while (sqlite3_step(q) == SQLITE_ROW)
    plan.append(reinterpret_cast<const char*>(sqlite3_column_text(q, 3))).push_back('\n');
  sqlite3_finalize(q);
  sqlite3_close(db);
  return plan;
}

}  // namespace

// A start lists the unfinished rooms by a partial index: the finished ones, every game the
// server ever held, are not read. A file made before the index gets it at open.
TEST_CASE("sqlite: the unfinished rooms are listed without reading the finished ones") {
  temp_dir dir;
  const auto db = dir.db();
  auto s = journal_store(db);
  for (int i = 0; i < 20; ++i)
    REQUIRE(
        journal_commit(*s, save_room_write{"f" + std::to_string(i), room_state::finished, "{}"}));
  REQUIRE(journal_commit(*s, save_room_write{"w", room_state::waiting, "{}"}));
  REQUIRE(journal_commit(*s, save_room_write{"p", room_state::playing, "{}"}));
  REQUIRE(journal_commit(*s, save_room_write{"q", room_state::playing, "{}"}));
  REQUIRE(journal_commit(*s, save_room_write{"q", room_state::finished, "{}"}));  // leaves it
  s.reset();
  const char* const unfinished =
      "SELECT id, state, meta FROM rooms WHERE state <> 'finished' ORDER BY ord";
  CHECK(journal_plan(db, unfinished) == "SCAN rooms USING INDEX rooms_unfinished\n");
  CHECK(journal_sql(db,
                    "SELECT COUNT(*) FROM rooms INDEXED BY rooms_unfinished "
                    "WHERE state <> 'finished'") == 2);
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &raw) == SQLITE_OK);
  REQUIRE(sqlite3_exec(raw, "DROP INDEX rooms_unfinished", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(raw);
  CHECK(journal_plan(db, unfinished).find("rooms_unfinished") == std::string::npos);
  s = journal_store(db);
  std::string error;
  std::vector<std::string> order;
  for (const auto& r : s->unfinished_rooms(error)) order.push_back(r.id);
  CHECK(order == std::vector<std::string>{"w", "p"});
  CHECK(journal_plan(db, unfinished) == "SCAN rooms USING INDEX rooms_unfinished\n");
}

TEST_CASE("sqlite: a file of schema 1 is converted at open and its games in progress go on") {
  temp_dir dir;
  const auto db = dir.db();
  {  // what a server of schema 1 left: every move in `moves`
    sqlite3* old = nullptr;
    REQUIRE(sqlite3_open(db.c_str(), &old) == SQLITE_OK);
    const char* const schema1 = R"sql(
PRAGMA journal_mode=WAL;
CREATE TABLE rooms(id TEXT PRIMARY KEY, state TEXT NOT NULL, meta TEXT NOT NULL,
                   ord INTEGER NOT NULL);
CREATE TABLE moves(room TEXT NOT NULL, n INTEGER NOT NULL, move TEXT NOT NULL,
                   client_id TEXT NOT NULL, seq INTEGER NOT NULL,
                   PRIMARY KEY(room, n)) WITHOUT ROWID;
CREATE INDEX rooms_by_state ON rooms(state, ord);
INSERT INTO rooms VALUES('old', 'playing', '{}', 1), ('done', 'finished', '{}', 2);
INSERT INTO moves VALUES('old', 0, '{"n":0}', '0', 1), ('old', 1, '{"n":1}', '1', 2),
                        ('done', 0, '{"n":0}', '0', 1), ('done', 1, '{"n":1}', '1', 2);
PRAGMA user_version=1;
)sql";
    REQUIRE(sqlite3_exec(old, schema1, nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(old);
  }
  auto s = journal_store(db);
  CHECK(journal_sql(db, "PRAGMA user_version") == 3);
  CHECK(journal_sql(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'moves'") == 0);
  CHECK(journal_sql(db, "SELECT COUNT(*) FROM journal") == 2);  // the game in progress
  CHECK(journal_sql(db, "SELECT COUNT(*) FROM games") == 1);
  std::string error;
  auto rooms = s->unfinished_rooms(error);
  REQUIRE_MESSAGE(rooms.size() == 1, error);
  check_moves(rooms[0], 2);
  CHECK_FALSE(journal_commit(*s, journal_move("old", 1)));  // its next move is 2
  s->readmit("old");
  REQUIRE(journal_commit(*s, journal_move("old", 2)));
  auto old = s->load("old", error);
  REQUIRE_MESSAGE(old, error);
  check_moves(*old, 3);
  REQUIRE(journal_commit(*s, save_room_write{"old", room_state::finished, "{}"}));
  old = s->load("old", error);
  REQUIRE_MESSAGE(old, error);
  check_moves(*old, 3);
  auto done = s->load("done", error);
  REQUIRE_MESSAGE(done, error);
  check_moves(*done, 2);
}

TEST_CASE("a save writes the room's meta, and its state only when that changed") {
  temp_dir dir;
  const auto db = dir.db();
  auto s = journal_store(db);
  const auto row = [&](const char* state, int m) {
    const std::string sql = std::string("SELECT COUNT(*) FROM rooms WHERE id = 'a' AND state = '") +
                            state + "' AND meta = '{\"m\":" + std::to_string(m) + "}'";
    return journal_sql(db, sql.c_str());
  };
  REQUIRE(journal_commit(*s, save_room_write{"a", room_state::waiting, R"({"m":1})"}));
  CHECK(row("waiting", 1) == 1);
  REQUIRE(journal_commit(*s, save_room_write{"a", room_state::playing, R"({"m":2})"}));
  CHECK(row("playing", 2) == 1);
  // The same state: the room's page alone is written, not its entries in the indexes on state
  // (the frames the commit added to an emptied WAL: 3 when `state` was set again).
  const auto wal_frames = [&](const char* mode) {
    sqlite3* c = nullptr;
    REQUIRE(sqlite3_open_v2(db.c_str(), &c, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    sqlite3_stmt* q = nullptr;
    const std::string sql = std::string("PRAGMA wal_checkpoint(") + mode + ")";
    REQUIRE(sqlite3_prepare_v2(c, sql.c_str(), -1, &q, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(q) == SQLITE_ROW);
    CHECK(sqlite3_column_int(q, 0) == 0);  // not busy
    const int frames = sqlite3_column_int(q, 1);
    sqlite3_finalize(q);
    sqlite3_close(c);
    return frames;
  };
  // The check that the store starts on opening reads the file beside it: while it runs, the
  // checkpoint cannot empty the WAL (busy; seen once in CI).
  s->await_database_check();
  wal_frames("TRUNCATE");
  REQUIRE(journal_commit(*s, save_room_write{"a", room_state::playing, R"({"m":3})"}));
  CHECK(row("playing", 3) == 1);
  CHECK(wal_frames("PASSIVE") == 1);
  std::string error;
  CHECK(s->unfinished_rooms(error).size() == 1);
  REQUIRE(journal_commit(*s, save_room_write{"a", room_state::finished, R"({"m":4})"}));
  CHECK(row("finished", 4) == 1);
  CHECK(s->unfinished_rooms(error).empty());
  CHECK(error.empty());
}
