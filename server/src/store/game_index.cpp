#include "store/game_index.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ratings/pools.hpp"

namespace carcassonne::server {

namespace {

std::string seats_json(const game_end& end) {
  auto seats = nlohmann::json::array();
  for (const auto& s : end.seats)
    seats.push_back(
        {{"player", s.player}, {"name", s.name}, {"score", s.score}, {"forfeited", s.forfeited}});
  return seats.dump();
}

// The seats' ratings before the game, in seat order (a player without one: a new rating).
bool ratings_before(sql::connection& db, const game_end& end, std::vector<ratings::rating>& before,
                    std::vector<std::int64_t>& games, std::string& error) {
  const ratings::rating fresh;
  if (db.row_locks()) {
    // Every row made first, then locked, in player order: a shared player's row is where two
    // concurrent games meet, and both take the rows in the same order.
    std::vector<std::string> players;
    for (const auto& s : end.seats) players.push_back(s.player);
    std::sort(players.begin(), players.end());
    for (const auto& p : players)
      if (!db.run("INSERT INTO ratings(player, pool, r, rd, sigma, games, provisional) "
                  "VALUES($1, $2, $3, $4, $5, 0, 1) ON CONFLICT(player, pool) DO NOTHING",
                  {p, end.pool, fresh.r, fresh.rd, fresh.sigma}, error))
        return false;
    for (const auto& p : players)
      if (!db.run("SELECT 1 FROM ratings WHERE player = $1 AND pool = $2 FOR UPDATE", {p, end.pool},
                  error))
        return false;
  }
  for (const auto& s : end.seats) {
    const auto row =
        db.run("SELECT r, rd, sigma, games FROM ratings WHERE player = $1 AND pool = $2",
               {s.player, end.pool}, error);
    if (!row) return false;
    if (row->empty()) {
      before.push_back(fresh);
      games.push_back(0);
    } else {
      before.push_back({row->real(0, 0), row->real(0, 1), row->real(0, 2)});
      games.push_back(row->integer(0, 3));
    }
  }
  return true;
}

bool rate(sql::connection& db, const std::string& room, const game_end& end, std::string& error) {
  std::vector<ratings::rating> before;
  std::vector<std::int64_t> games;
  if (!ratings_before(db, end, before, games, error)) return false;
  std::vector<ratings::standing> standings;
  for (const auto& s : end.seats) standings.push_back({s.score, s.forfeited});
  const auto after = ratings::rate_game(before, standings);
  for (std::size_t i = 0; i < end.seats.size(); ++i) {
    const auto& p = end.seats[i].player;
    const auto& a = after.at(i);
    const std::int64_t provisional = ratings::provisional(a) ? 1 : 0;
    if (!db.run("INSERT INTO ratings(player, pool, r, rd, sigma, games, provisional) "
                "VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT(player, pool) DO UPDATE SET "
                "r = excluded.r, rd = excluded.rd, sigma = excluded.sigma, games = excluded.games, "
                "provisional = excluded.provisional",
                {p, end.pool, a.r, a.rd, a.sigma, games[i] + 1, provisional}, error) ||
        !db.run("INSERT INTO rating_history(player, pool, room, at_ms, r, rd, sigma) "
                "VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT(player, pool, room) DO NOTHING",
                {p, end.pool, room, end.finished_ms, a.r, a.rd, a.sigma}, error))
      return false;
  }
  return true;
}

}  // namespace

bool is_rated(const game_end& end) {
  if (end.pool.empty() || end.seats.size() < 2) return false;
  std::vector<std::string> players;
  for (const auto& s : end.seats) {
    if (s.player.empty()) return false;
    players.push_back(s.player);
  }
  std::sort(players.begin(), players.end());
  return std::adjacent_find(players.begin(), players.end()) == players.end();
}

bool write_game_end(sql::connection& db, const std::string& room, const game_end& end,
                    std::string& error) {
  const bool rated = is_rated(end);
  if (!db.run("INSERT INTO finished_games(room, finished_ms, pool, rated, seats) "
              "VALUES($1, $2, $3, $4, $5) ON CONFLICT(room) DO NOTHING",
              {room, end.finished_ms, end.pool, std::int64_t{rated}, seats_json(end)}, error))
    return false;
  for (const auto& s : end.seats)
    if (!s.player.empty() &&
        !db.run("INSERT INTO game_seats(player, room, finished_ms) VALUES($1, $2, $3) "
                "ON CONFLICT(player, room) DO NOTHING",
                {s.player, room, end.finished_ms}, error))
      return false;
  if (!rated) return true;
  // The guard: only the write that inserts the room's row rates it (a retry, a replayed save after
  // a failover, finds it and changes nothing). Under PostgreSQL a concurrent insert of the same
  // room waits for the other transaction and then does nothing.
  sql::connection::outcome inserted;
  if (!db.run("INSERT INTO rated_games(room) VALUES($1) ON CONFLICT(room) DO NOTHING", {room},
              error, &inserted))
    return false;
  return inserted.changed == 0 || rate(db, room, end, error);
}

}  // namespace carcassonne::server
