// The PostgreSQL store's own cases (the shared ones are in persistence_test.cpp): a clear error
// when the database is unreachable or newer, and a database that goes down and comes back —
// writes fail meanwhile (rooms answer storage_failed) and nothing is acknowledged that is not
// stored.
#include <doctest/doctest.h>

#include "private_postgres.hpp"
#include "store/store.hpp"
#include "store_backends.hpp"

using namespace carcassonne::server;
using carcassonne::testing::free_loopback_port;
using carcassonne::testing::started_postgres;
using nlohmann::json;

TEST_CASE("PostgreSQL store: an unreachable or newer database is a clear error at open") {
  std::string error;
  const std::string nowhere =
      "postgresql://carcassonne:secret@127.0.0.1:" + std::to_string(free_loopback_port()) + "/none";
  CHECK_FALSE(store::open({nowhere, true}, error));
  CHECK(error.find("cannot connect") != std::string::npos);
  CHECK(error.find("is PostgreSQL running?") != std::string::npos);
  CHECK(error.find("secret") == std::string::npos);  // the password never reaches a log
  CHECK(error.find("carcassonne:***@127.0.0.1") != std::string::npos);

  auto* pg = carcassonne::testing::shared_postgres();
  if (!pg) return;
  const std::string url = pg->fresh_database();
  { REQUIRE(store::open({url, true}, error)); }
  PGconn* c = PQconnectdb(url.c_str());
  PQclear(PQexec(c, "UPDATE carcassonne_schema SET version = 99"));
  PQfinish(c);
  error.clear();
  CHECK_FALSE(store::open({url, true}, error));
  CHECK(error.find("newer server (schema 99") != std::string::npos);
}

TEST_CASE("PostgreSQL store: down, writes fail and nothing is kept; back, writes go on") {
  auto pg = started_postgres();  // its own server: this case stops it
  if (!pg) return;
  std::string error;
  auto s = store::open({pg->url("postgres"), true}, error);
  REQUIRE_MESSAGE(s, error);
  bool first = false;
  s->submit(save_room_write{"a", room_state::playing, "{}"}, [&](bool ok) { first = ok; });
  s->flush();
  CHECK(first);

  REQUIRE(pg->kill());
  bool during = true;
  s->submit(move_write{"a", 0, "{}", "null", 1}, [&](bool ok) { during = ok; });
  s->flush();
  CHECK_FALSE(during);
  CHECK(s->failures.load() == 1);
  CHECK(s->degraded());
  CHECK(s->fault().find("Connection refused") != std::string::npos);
  CHECK(s->unfinished_rooms(error).empty());
  CHECK_FALSE(error.empty());

  REQUIRE(pg->restart());
  bool after = true;
  // Room a's writes are refused untried until it is readmitted (its room is rebuilt first).
  s->submit(move_write{"a", 0, R"({"n":0})", "null", 1}, [&](bool ok) { after = ok; });
  s->flush();
  CHECK_FALSE(after);
  s->readmit("a");
  s->submit(move_write{"a", 0, R"({"n":0})", "null", 1}, [&](bool ok) { after = ok; });
  s->flush();
  CHECK(after);  // the writer reconnected
  CHECK_FALSE(s->degraded());
  error.clear();
  auto rooms = s->unfinished_rooms(error);
  CHECK(error.empty());
  REQUIRE(rooms.size() == 1);
  REQUIRE(rooms[0].moves.size() == 1);  // the failed write is not there, the later one is
  CHECK(rooms[0].moves[0].move == json{{"n", 0}});
}
