// The notifications' rows that rooms write with their own writes (store.hpp: notice, my_game):
// the outbox of notices and the index of the games each account sits in, in SQL both databases
// take, written inside the store writer's transaction. The notification worker (server/src/notify)
// reads and updates them on a connection of its own.
//
// notifications: one row per notice, keyed by its idempotency key; `state` pending until the
// worker batches it (batched), drops it (dropped: stale, or nowhere to send it). seated_games: one
// row per (room, seat) with an account, the room's part repeated (a few hundred bytes), so that a
// player's games are one index walk.
#pragma once
#include <string>
#include <vector>

#include "store/sql.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

inline constexpr const char* notify_rows_schema = R"sql(
CREATE TABLE IF NOT EXISTS notifications(
  key        TEXT PRIMARY KEY,
  player     TEXT NOT NULL,
  kind       TEXT NOT NULL,
  room       TEXT NOT NULL,
  data       TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  state      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notifications_pending ON notifications(state, player, created_ms);
CREATE TABLE IF NOT EXISTS seated_games(
  room        TEXT NOT NULL,
  seat        INTEGER NOT NULL,
  player      TEXT NOT NULL,
  name        TEXT NOT NULL,
  state       TEXT NOT NULL,
  acting      INTEGER NOT NULL,
  turn        BIGINT NOT NULL,
  clock       TEXT NOT NULL,
  deadline_ms BIGINT NOT NULL,
  seats       TEXT NOT NULL,
  vacation    TEXT NOT NULL,
  updated_ms  BIGINT NOT NULL,
  PRIMARY KEY(room, seat)
);
CREATE INDEX IF NOT EXISTS seated_games_by_player ON seated_games(player, state);
)sql";

// Writes a write's notices (a key already there: skipped) and its "my games" rows, inside the
// caller's transaction; `now_ms` is the notices' creation time.
bool write_room_rows(sql::connection& db, const std::string& room,
                     const std::vector<notice>& notices, const my_game* mine, std::int64_t now_ms,
                     std::string& error);
// Removes a forgotten room's "my games" rows (its notices stay until delivered).
bool forget_room_rows(sql::connection& db, const std::string& room, std::string& error);

}  // namespace carcassonne::server
