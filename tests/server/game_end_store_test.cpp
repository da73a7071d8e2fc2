// A game's end in the store (store.hpp, game_end) on both databases: the index of finished games,
// the ratings applied once per room across retries and restarts, and the reads behind profiles,
// leaderboards and the records API (players/player_store.hpp).
#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <map>
#include <thread>

#include "players/player_store.hpp"
#include "ratings/pools.hpp"
#include "store/store.hpp"
#include "store_backends.hpp"

using namespace carcassonne::server;
using carcassonne::testing::store_backends;
namespace rt = carcassonne::server::ratings;

namespace {

constexpr std::int64_t ge_forever = std::numeric_limits<std::int64_t>::max();

std::unique_ptr<store> ge_open_store(const std::string& location) {
  std::string error;
  auto s = store::open({location, true}, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

std::unique_ptr<player_store> ge_open_players(const std::string& location) {
  std::string error;
  auto s = player_store::open(location, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

// Two seats: `a` scored `sa`, `b` scored `sb`.
game_end ge_duel(const std::string& a, int sa, const std::string& b, int sb, std::int64_t at,
                 const std::string& pool = "duel") {
  return game_end{at, pool, {{a, "name " + a, sa, false}, {b, "name " + b, sb, false}}};
}

write_result ge_end(store& s, const std::string& room, const game_end& end,
                    std::uint64_t generation = 0) {
  write_result result;
  s.submit(save_room_write{room, room_state::finished, R"({"k":1})", generation, end},
           [&](write_result r) { result = r; });
  s.flush();
  return result;
}

std::vector<rating_row> ge_ratings(player_store& p, const std::string& player) {
  std::string error;
  auto r = p.ratings_of(player, error);
  REQUIRE_MESSAGE(r, error);
  return *r;
}

std::vector<rating_point> ge_history(player_store& p, const std::string& player,
                                     const std::string& pool = "duel") {
  std::string error;
  auto r = p.rating_history(player, pool, 100, error);
  REQUIRE_MESSAGE(r, error);
  return *r;
}

std::vector<std::string> ge_rooms(const std::vector<game_summary>& games) {
  std::vector<std::string> out;
  for (const auto& g : games) out.push_back(g.room);
  return out;
}

}  // namespace

TEST_CASE("a rated game's end writes the index and rates its players once") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    auto players = ge_open_players(location);  // the player store may open the file first
    auto s = ge_open_store(location);
    std::string error;

    const rt::rating fresh;
    const std::vector<rt::rating> fresh2{fresh, fresh};
    const std::vector<rt::standing> a_wins{{30, false}, {20, false}};
    const auto first = rt::rate_game(fresh2, a_wins);
    REQUIRE(ge_end(*s, "r1", ge_duel("pa", 30, "pb", 20, 1000)).durable);
    const auto check_after_first = [&] {
      CHECK(ge_ratings(*players, "pa") == std::vector<rating_row>{{"duel", first[0], 1}});
      CHECK(ge_ratings(*players, "pb") == std::vector<rating_row>{{"duel", first[1], 1}});
      CHECK(ge_history(*players, "pa") == std::vector<rating_point>{{"r1", 1000, first[0]}});
      CHECK(ge_history(*players, "pb") == std::vector<rating_point>{{"r1", 1000, first[1]}});
    };
    check_after_first();
    std::int64_t total = 0;
    auto games = players->games("pa", 0, ge_forever, 0, 10, total, error);
    REQUIRE_MESSAGE(games, error);
    REQUIRE(games->size() == 1);
    CHECK(total == 1);
    const auto& g = games->at(0);
    CHECK(g.room == "r1");
    CHECK(g.finished_ms == 1000);
    CHECK(g.pool == "duel");
    CHECK(g.rated);
    REQUIRE(g.seats.size() == 2);
    CHECK(g.seats[0].player == "pa");
    CHECK(g.seats[0].name == "name pa");  // no account: the name as it was
    CHECK(g.seats[0].score == 30);
    CHECK(g.seats[1].player == "pb");
    CHECK(g.seats[1].score == 20);

    // The same end again (a retry), then after reopening the store (a restart or a failover that
    // replays the last save): nothing changes.
    REQUIRE(ge_end(*s, "r1", ge_duel("pa", 30, "pb", 20, 1000)).durable);
    check_after_first();
    s.reset();
    s = ge_open_store(location);
    REQUIRE(ge_end(*s, "r1", ge_duel("pa", 30, "pb", 20, 1000)).durable);
    check_after_first();
    CHECK(players->games("", 0, ge_forever, 0, 10, total, error)->size() == 1);

    // The next game starts from the stored ratings; a forfeit loses whatever the score.
    const auto second = rt::rate_game(first, std::vector<rt::standing>{{10, false}, {25, true}});
    auto forfeit = ge_duel("pa", 10, "pb", 25, 2000);
    forfeit.seats[1].forfeited = true;
    REQUIRE(ge_end(*s, "r2", forfeit).durable);
    CHECK(ge_ratings(*players, "pa") == std::vector<rating_row>{{"duel", second[0], 2}});
    CHECK(ge_ratings(*players, "pb") == std::vector<rating_row>{{"duel", second[1], 2}});
    CHECK(second[0].r > first[0].r);
    CHECK(ge_history(*players, "pb") ==
          std::vector<rating_point>{{"r2", 2000, second[1]}, {"r1", 1000, first[1]}});
    games = players->games("pb", 0, ge_forever, 0, 10, total, error);
    REQUIRE(games);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"r2", "r1"});
    CHECK(games->at(0).seats[1].forfeited);
  }
}

TEST_CASE("an unrated end writes the index only; a seat without an account is not rated") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    auto s = ge_open_store(location);
    auto players = ge_open_players(location);
    std::string error;
    REQUIRE(ge_end(*s, "u1", ge_duel("pa", 30, "pb", 20, 1000, "")).durable);
    REQUIRE(ge_end(*s, "u2", ge_duel("pa", 30, "", 20, 2000)).durable);
    // One player in two seats (two bots of one level) is not rated against itself.
    REQUIRE(ge_end(*s, "u3", ge_duel("pa", 30, "pa", 20, 3000)).durable);
    CHECK(ge_ratings(*players, "pa").empty());
    CHECK(ge_history(*players, "pa").empty());
    std::int64_t total = 0;
    auto games = players->games("pa", 0, ge_forever, 0, 10, total, error);
    REQUIRE_MESSAGE(games, error);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"u3", "u2", "u1"});
    CHECK(total == 3);
    for (const auto& g : *games) CHECK_FALSE(g.rated);
    CHECK(games->at(1).pool == "duel");
    CHECK(games->at(1).seats[1].player == "");
    CHECK(games->at(2).pool == "");
    games = players->games("pb", 0, ge_forever, 0, 10, total, error);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"u1"});
    std::int64_t board_total = -1;
    auto board = players->leaderboard("duel", 0, 10, board_total, error);
    REQUIRE_MESSAGE(board, error);
    CHECK(board->empty());
    CHECK(board_total == 0);
  }
}

TEST_CASE("leaderboards: established players first, by rating, ties by player id, paged") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    auto s = ge_open_store(location);
    auto players = ge_open_players(location);
    std::string error;
    {  // names come from the accounts
      player_account e1;
      e1.id = "e1";
      e1.name = "Established One";
      REQUIRE(players->create_player(e1, "", error));
    }
    // e1 and e2 play until both are established, e1 winning two games in three; the model
    // follows with rate_game.
    std::map<std::string, rt::rating> model;
    std::map<std::string, std::int64_t> played;
    int room = 0;
    const auto play = [&](const std::string& a, int sa, const std::string& b, int sb,
                          const std::string& pool = "duel") {
      const auto id = "g" + std::to_string(++room);
      const std::vector<rt::rating> before{model[a], model[b]};
      const auto after = rt::rate_game(before, std::vector<rt::standing>{{sa, false}, {sb, false}});
      REQUIRE(ge_end(*s, id, ge_duel(a, sa, b, sb, 1000 + room, pool)).durable);
      if (pool != "duel") return;
      model[a] = after[0];
      model[b] = after[1];
      ++played[a];
      ++played[b];
    };
    while ((rt::provisional(model["e1"]) || rt::provisional(model["e2"])) && room < 300)
      play("e1", room % 3 == 2 ? 5 : 20, "e2", 10);
    REQUIRE_FALSE(rt::provisional(model["e1"]));
    REQUIRE_FALSE(rt::provisional(model["e2"]));
    // Provisional: two equal winners (a tie broken by id) and their two equal losers.
    play("t2", 20, "u1", 10);
    play("t1", 20, "u2", 10);
    play("x1", 20, "x2", 10, "duel_expansions");  // another pool's board
    REQUIRE(model["t1"] == model["t2"]);
    REQUIRE(model["e1"].r > model["e2"].r);

    const std::vector<std::string> order{"e1", "e2", "t1", "t2", "u1", "u2"};
    CHECK(model["t1"].r > model["u1"].r);
    std::int64_t total = 0;
    auto board = players->leaderboard("duel", 0, 10, total, error);
    REQUIRE_MESSAGE(board, error);
    CHECK(total == 6);
    REQUIRE(board->size() == order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      INFO("row " << i);
      CHECK(board->at(i).player == order[i]);
      CHECK(board->at(i).value == model[order[i]]);
      CHECK(board->at(i).games == played[order[i]]);
    }
    CHECK(board->at(0).name == "Established One");
    CHECK(board->at(1).name == "");  // no account
    auto page = players->leaderboard("duel", 2, 3, total, error);
    REQUIRE(page);
    CHECK(total == 6);
    REQUIRE(page->size() == 3);
    CHECK(page->at(0).player == "t1");
    CHECK(page->at(2).player == "u1");
    page = players->leaderboard("duel_expansions", 0, 10, total, error);
    REQUIRE(page);
    CHECK(total == 2);
    CHECK(page->at(0).player == "x1");
  }
}

TEST_CASE("finished games by player and by date, newest first, paged") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    auto s = ge_open_store(location);
    auto players = ge_open_players(location);
    std::string error;
    // Five games of pa at 1000..5000, the even ones against pb; "w" at 3000 too, without pa.
    for (int i = 1; i <= 5; ++i)
      REQUIRE(ge_end(*s, "g" + std::to_string(i),
                     ge_duel("pa", i, i % 2 ? "pc" : "pb", 0, i * 1000, ""))
                  .durable);
    REQUIRE(ge_end(*s, "w", ge_duel("pb", 1, "pc", 2, 3000, "")).durable);
    std::int64_t total = 0;
    auto games = players->games("pa", 0, ge_forever, 0, 10, total, error);
    REQUIRE_MESSAGE(games, error);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"g5", "g4", "g3", "g2", "g1"});
    games = players->games("pa", 0, ge_forever, 1, 2, total, error);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"g4", "g3"});
    CHECK(total == 5);
    games = players->games("pb", 2000, 4001, 0, 10, total, error);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"g4", "w", "g2"});
    CHECK(total == 3);
    // All games in [2000, 4000): by date, ties (two at 3000) by room, newest first.
    games = players->games("", 2000, 4000, 0, 10, total, error);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"w", "g3", "g2"});
    CHECK(total == 3);
    games = players->games("", 0, ge_forever, 4, 10, total, error);
    CHECK(ge_rooms(*games) == std::vector<std::string>{"g2", "g1"});
    CHECK(total == 6);
    games = players->games("nobody", 0, ge_forever, 0, 10, total, error);
    REQUIRE(games);
    CHECK(games->empty());
    CHECK(total == 0);
  }
}

TEST_CASE("PostgreSQL: a fenced game end is not stored; two ends at once with a shared player") {
  auto* pg = carcassonne::testing::shared_postgres();
  if (!pg) return;
  const auto url = pg->fresh_database();
  auto one = ge_open_store(url), two = ge_open_store(url);
  auto players = ge_open_players(url);
  std::string error;

  // An instance that lost the room: its last save and the game's end are refused together.
  REQUIRE(two->take_room("f", 2, error));
  CHECK(ge_end(*one, "f", ge_duel("pa", 1, "pb", 0, 500), 1).fenced);
  std::int64_t total = -1;
  CHECK(players->games("", 0, ge_forever, 0, 10, total, error)->empty());
  CHECK(ge_ratings(*players, "pa").empty());

  // Two games sharing pa end on two instances at once, many times over: every end is applied,
  // one after the other (the model plays them in the order their history says), none is lost.
  constexpr int rounds = 20;
  for (int i = 0; i < rounds; ++i) {
    write_result a, b;
    one->submit(save_room_write{"x" + std::to_string(i), room_state::finished, "{}", 0,
                                ge_duel("pa", 20, "pb", 10, 1000 + 2 * i)},
                [&](write_result r) { a = r; });
    two->submit(save_room_write{"y" + std::to_string(i), room_state::finished, "{}", 0,
                                ge_duel("pc", 20, "pa", 10, 1001 + 2 * i)},
                [&](write_result r) { b = r; });
    std::thread t([&] { one->flush(); });
    two->flush();
    t.join();
    REQUIRE(a.durable);
    REQUIRE(b.durable);
  }
  const auto pa = ge_ratings(*players, "pa");
  REQUIRE(pa.size() == 1);
  CHECK(pa[0].games == 2 * rounds);
  CHECK(ge_history(*players, "pa").size() == 2 * rounds);
  CHECK(ge_ratings(*players, "pb").at(0).games == rounds);
  CHECK(ge_ratings(*players, "pc").at(0).games == rounds);
}

TEST_CASE("a database of the previous schema gains the game index and ratings at open") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    { ge_open_store(location); }
    const char* const drop =
        "DROP TABLE finished_games; DROP TABLE game_seats; DROP TABLE ratings; "
        "DROP TABLE rating_history; DROP TABLE rated_games;";
    if (backend.name == "sqlite") {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open(location.c_str(), &db) == SQLITE_OK);
      CHECK(sqlite3_exec(db, drop, nullptr, nullptr, nullptr) == SQLITE_OK);
      CHECK(sqlite3_exec(db, "PRAGMA user_version=2", nullptr, nullptr, nullptr) == SQLITE_OK);
      sqlite3_close(db);
    } else {
      PGconn* c = PQconnectdb(location.c_str());
      PQclear(PQexec(c, drop));
      PQclear(PQexec(c, "UPDATE carcassonne_schema SET version = 1"));
      PQfinish(c);
    }
    auto s = ge_open_store(location);
    REQUIRE(ge_end(*s, "r1", ge_duel("pa", 2, "pb", 1, 1000)).durable);
    auto players = ge_open_players(location);
    CHECK(ge_ratings(*players, "pa").size() == 1);
    std::string version;
    if (backend.name == "sqlite") {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open(location.c_str(), &db) == SQLITE_OK);
      sqlite3_stmt* q = nullptr;
      sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, nullptr);
      REQUIRE(sqlite3_step(q) == SQLITE_ROW);
      version = std::to_string(sqlite3_column_int(q, 0));
      sqlite3_finalize(q);
      sqlite3_close(db);
    } else {
      PGconn* c = PQconnectdb(location.c_str());
      PGresult* r = PQexec(c, "SELECT MAX(version) FROM carcassonne_schema");
      version = PQgetvalue(r, 0, 0);
      PQclear(r);
      PQfinish(c);
    }
    CHECK(version == (backend.name == "sqlite" ? "3" : "2"));
  }
}
