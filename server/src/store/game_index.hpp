// The index of finished games and the ratings (store.hpp, game_end): the tables, in SQL that both
// databases take, and the write of one game's end, in the transaction of the room's last save.
//
// finished_games: a row per ended game, its seats as JSON text [{player, name, score, forfeited}]
// (names as they were; pages show a player's current name). game_seats: the games of a player,
// newest first, by an index walk. ratings: a player's rating in a pool, indexed in leaderboard
// order (established before provisional, by rating, then player id). rating_history: a point per
// rated game. rated_games: the rooms whose ratings were applied, the guard that rates a room once.
#pragma once
#include <string>

#include "store/sql.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

inline constexpr const char* game_index_schema = R"sql(
CREATE TABLE IF NOT EXISTS finished_games(
  room        TEXT PRIMARY KEY,
  finished_ms BIGINT NOT NULL,
  pool        TEXT NOT NULL,
  rated       INTEGER NOT NULL,
  seats       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS finished_games_by_time ON finished_games(finished_ms DESC, room DESC);
CREATE TABLE IF NOT EXISTS game_seats(
  player      TEXT NOT NULL,
  room        TEXT NOT NULL,
  finished_ms BIGINT NOT NULL,
  PRIMARY KEY(player, room)
);
CREATE INDEX IF NOT EXISTS game_seats_by_player ON game_seats(player, finished_ms DESC, room DESC);
CREATE TABLE IF NOT EXISTS ratings(
  player      TEXT NOT NULL,
  pool        TEXT NOT NULL,
  r           DOUBLE PRECISION NOT NULL,
  rd          DOUBLE PRECISION NOT NULL,
  sigma       DOUBLE PRECISION NOT NULL,
  games       BIGINT NOT NULL,
  provisional INTEGER NOT NULL,
  PRIMARY KEY(player, pool)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(pool, provisional, r DESC, player);
CREATE TABLE IF NOT EXISTS rating_history(
  player TEXT NOT NULL,
  pool   TEXT NOT NULL,
  room   TEXT NOT NULL,
  at_ms  BIGINT NOT NULL,
  r      DOUBLE PRECISION NOT NULL,
  rd     DOUBLE PRECISION NOT NULL,
  sigma  DOUBLE PRECISION NOT NULL,
  PRIMARY KEY(player, pool, room)
);
CREATE TABLE IF NOT EXISTS rated_games(
  room TEXT PRIMARY KEY
);
)sql";

// True when `end` is rated: a pool, two seats or more, every seat a distinct player (a player is
// not rated against itself, e.g. two bots of one level).
bool is_rated(const game_end& end);

// Writes `room`'s end inside the caller's transaction: the index rows (kept if already there) and,
// when rated and the room was not rated before, every seat's new rating and a point of history.
// With row locks (PostgreSQL) the seats' rating rows are locked in player order first, so that two
// games with a shared player ending at once on two servers wait for each other, never deadlock.
bool write_game_end(sql::connection& db, const std::string& room, const game_end& end,
                    std::string& error);

}  // namespace carcassonne::server
