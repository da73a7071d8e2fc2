// `carcassonne bench-players --store LOCATION` (hidden; scripts/bench-players.sh): the figures of
// the players' pages at scale. Fills an empty database (SQLite file or postgresql:// URL) with
// --players accounts, one rating each in `duel`, and --games finished rated games of two seats
// with their seats' index and history rows, generated inside the database (a recursive CTE, or
// generate_series); then times through the player store a leaderboard page at offset 0 and deep
// in the board, a profile (ratings_of + rating_history + a page of games) and a page of all games
// by date; and through the store the commit of a game's end, rated, unrated, and a save without
// one. One JSON line of milliseconds (median, and 95th percentile).
#include <libpq-fe.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>

#include "carcassonne/app/commands.hpp"
#include "players/player_store.hpp"
#include "store/store.hpp"

namespace carcassonne::app {

namespace {

// $P: players, $G: games. Player n (0-based) is 'p' + 16 hex digits; game g's seats are players
// (g * 7919) % P and that + 1 + (g * 104729) % (P - 1), modulo P: two distinct players.
const char* const fill_sqlite = R"sql(
PRAGMA cache_size = -524288;
PRAGMA temp_store = MEMORY;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $P)
INSERT INTO players SELECT printf('p%016x', i), 'Player ' || i, 'player ' || i, 0, 0, 0, 0,
  1700000000000 + i, '', '' FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $P)
INSERT INTO ratings SELECT printf('p%016x', i), 'duel', 1200 + (i * 37 % 600) + (i % 7) / 7.0,
  50 + i % 300, 0.06, 1 + i % 40, CASE WHEN 50 + i % 300 > 110 THEN 1 ELSE 0 END FROM n;
CREATE TEMP TABLE seats AS
WITH RECURSIVE n(g) AS (SELECT 0 UNION ALL SELECT g + 1 FROM n WHERE g + 1 < $G)
SELECT printf('b%08d', g) AS room, 1710000000000 + g * 1000 AS ms, g * 7919 % $P AS a,
  (g * 7919 % $P + 1 + g * 104729 % ($P - 1)) % $P AS b FROM n;
INSERT INTO finished_games SELECT room, ms, 'duel', 1,
  json_array(json_object('player', printf('p%016x', a), 'name', 'Player ' || a, 'score', 50,
                         'forfeited', json('false')),
             json_object('player', printf('p%016x', b), 'name', 'Player ' || b, 'score', 40,
                         'forfeited', json('false'))) FROM seats;
CREATE TEMP TABLE seat AS SELECT printf('p%016x', a) AS player, room, ms FROM seats UNION ALL
  SELECT printf('p%016x', b), room, ms FROM seats;
INSERT INTO game_seats SELECT player, room, ms FROM seat ORDER BY player, room;
INSERT INTO rating_history SELECT player, 'duel', room, ms, 1500, 100, 0.06 FROM seat
  ORDER BY player, room;
DROP TABLE seat;
INSERT INTO rated_games SELECT room FROM seats;
DROP TABLE seats;
COMMIT;
ANALYZE;
)sql";

const char* const fill_postgres = R"sql(
BEGIN;
INSERT INTO players SELECT 'p' || lpad(to_hex(i), 16, '0'), 'Player ' || i, 'player ' || i, 0, 0,
  0, 0, 1700000000000 + i, '', '' FROM generate_series(0, $P - 1) i;
INSERT INTO ratings SELECT 'p' || lpad(to_hex(i), 16, '0'), 'duel',
  1200 + (i * 37 % 600) + (i % 7) / 7.0, 50 + i % 300, 0.06, 1 + i % 40,
  CASE WHEN 50 + i % 300 > 110 THEN 1 ELSE 0 END FROM generate_series(0, $P - 1) i;
CREATE TEMP TABLE seats AS
SELECT 'b' || lpad(g::text, 8, '0') AS room, 1710000000000 + g::bigint * 1000 AS ms,
  g::bigint * 7919 % $P AS a, (g::bigint * 7919 % $P + 1 + g::bigint * 104729 % ($P - 1)) % $P AS b
FROM generate_series(0, $G - 1) g;
INSERT INTO finished_games SELECT room, ms, 'duel', 1,
  json_build_array(json_build_object('player', 'p' || lpad(to_hex(a), 16, '0'), 'name',
                                     'Player ' || a, 'score', 50, 'forfeited', false),
                   json_build_object('player', 'p' || lpad(to_hex(b), 16, '0'), 'name',
                                     'Player ' || b, 'score', 40, 'forfeited', false))::text
FROM seats;
CREATE TEMP TABLE seat AS SELECT 'p' || lpad(to_hex(a), 16, '0') AS player, room, ms FROM seats
  UNION ALL SELECT 'p' || lpad(to_hex(b), 16, '0'), room, ms FROM seats;
INSERT INTO game_seats SELECT player, room, ms FROM seat ORDER BY player, room;
INSERT INTO rating_history SELECT player, 'duel', room, ms, 1500, 100, 0.06 FROM seat
  ORDER BY player, room;
DROP TABLE seat;
INSERT INTO rated_games SELECT room FROM seats;
DROP TABLE seats;
COMMIT;
)sql";

std::string with_counts(std::string sql, std::int64_t players, std::int64_t games) {
  for (const auto& [key, value] : {std::pair{std::string("$P"), players}, {"$G", games}})
    for (auto at = sql.find(key); at != std::string::npos; at = sql.find(key, at))
      sql.replace(at, key.size(), std::to_string(value));
  return sql;
}

bool fill(const std::string& location, std::int64_t players, std::int64_t games,
          std::string& error) {
  if (server::is_postgres_url(location)) {
    PGconn* c = PQconnectdb(location.c_str());
    PGresult* r = PQexec(c, with_counts(fill_postgres, players, games).c_str());
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    // As autovacuum leaves a table that stopped changing: visibility map set, so that counts and
    // offsets are read from the indexes alone.
    if (ok) {
      r = PQexec(c, "VACUUM ANALYZE");
      ok = PQresultStatus(r) == PGRES_COMMAND_OK;
      PQclear(r);
    }
    if (!ok) error = PQerrorMessage(c);
    PQfinish(c);
    return ok;
  }
  sqlite3* db = nullptr;
  sqlite3_open(location.c_str(), &db);
  sqlite3_busy_timeout(db, 5000);
  char* message = nullptr;
  const bool ok = sqlite3_exec(db, with_counts(fill_sqlite, players, games).c_str(), nullptr,
                               nullptr, &message) == SQLITE_OK;
  if (!ok) error = message ? message : "fill failed";
  sqlite3_free(message);
  sqlite3_close(db);
  return ok;
}

// Milliseconds of `rounds` runs of `f`: the median and the 95th percentile.
nlohmann::json timed(int rounds, const std::function<bool(int)>& f, bool& ok) {
  std::vector<double> ms;
  for (int i = 0; i < rounds && ok; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    ok = f(i);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) {
    return ms.empty() ? 0.0 : ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * ms.size()))];
  };
  return {{"median_ms", at(0.5)}, {"p95_ms", at(0.95)}};
}

std::string player_id(std::int64_t n) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "p%016llx", static_cast<unsigned long long>(n));
  return buf;
}

}  // namespace

int run_bench_players(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  std::string location;
  std::int64_t players = 100000, games = 1000000;
  int rounds = 50;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    if (args[i] == "--store") location = args[i + 1];
    if (args[i] == "--players") players = std::stoll(args[i + 1]);
    if (args[i] == "--games") games = std::stoll(args[i + 1]);
    if (args[i] == "--rounds") rounds = std::stoi(args[i + 1]);
  }
  if (location.empty() || players < 2) {
    err << "usage: carcassonne bench-players --store FILE|URL [--players N] [--games N] "
           "[--rounds K]\n";
    return 1;
  }
  std::string error;
  auto db = server::store::open({location, true}, error);
  auto p = db ? server::player_store::open(location, error) : nullptr;
  if (!p) return err << "bench-players: " << error << "\n", 1;
  std::int64_t total = 0;
  const auto existing = p->games("", 0, 0, 0, 1, total, error);
  const auto t0 = std::chrono::steady_clock::now();
  if (existing && total == 0 && !fill(location, players, games, error))
    return err << "bench-players: fill: " << error << "\n", 1;
  const double fill_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  bool ok = true;
  nlohmann::json result{{"store", server::is_postgres_url(location) ? "postgresql" : "sqlite"},
                        {"players", players},
                        {"games", games},
                        {"fill_s", fill_s}};
  const auto board = [&](std::int64_t offset) {
    return
        [&, offset](int) { return p->leaderboard("duel", offset, 50, total, error).has_value(); };
  };
  result["leaderboard_offset_0"] = timed(rounds, board(0), ok);
  result["leaderboard_offset_50000"] = timed(rounds, board(50000), ok);
  result["profile"] = timed(
      rounds,
      [&](int i) {
        const auto who = player_id((i * 7919LL) % players);
        return p->ratings_of(who, error) && p->rating_history(who, "duel", 50, error) &&
               p->games(who, 0, 0, 0, 20, total, error);
      },
      ok);
  result["games_by_date_page"] = timed(
      rounds, [&](int i) { return p->games("", 0, 0, i * 50, 50, total, error).has_value(); }, ok);
  // A game's end as the store commits it: rated (two players), unrated, and the same save
  // without an end (each alone in its transaction).
  const auto run_id = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  const auto commit = [&](const std::string& prefix, std::optional<std::string> pool) {
    return [&, prefix = prefix + run_id + "-", pool](int i) {
      server::save_room_write w{prefix + std::to_string(i), server::room_state::finished, "{}"};
      if (pool)
        w.end = server::game_end{1800000000000 + i,
                                 *pool,
                                 {{player_id(2 * i % players), "a", 30, false},
                                  {player_id((2 * i + 1) % players), "b", 20, false}}};
      bool durable = false;
      db->submit(std::move(w), [&](server::write_result r) { durable = r.durable; });
      db->flush();
      return durable;
    };
  };
  // With the durable sync (the server's default), then without it, where the work of the end
  // itself shows: the sync of the commit dwarfs it.
  for (const bool sync : {true, false}) {
    const std::string suffix = sync ? "" : "_nosync";
    if (!sync) {
      db.reset();
      db = server::store::open({location, false}, error);
      if (!db) return err << "bench-players: " << error << "\n", 1;
    }
    result["commit_save_only" + suffix] = timed(rounds, commit("save" + suffix, std::nullopt), ok);
    result["commit_unrated_end" + suffix] = timed(rounds, commit("unrated" + suffix, ""), ok);
    result["commit_rated_end" + suffix] = timed(rounds, commit("rated" + suffix, "duel"), ok);
  }
  if (!ok) return err << "bench-players: " << error << "\n", 1;
  out << result.dump() << "\n";
  return 0;
}

}  // namespace carcassonne::app
