#include "store/notify_rows.hpp"

namespace carcassonne::server {

bool write_room_rows(sql::connection& db, const std::string& room,
                     const std::vector<notice>& notices, const my_game* mine, std::int64_t now_ms,
                     std::string& error) {
  for (const auto& n : notices)
    if (!db.run("INSERT INTO notifications(key, player, kind, room, data, created_ms, state) "
                "VALUES($1, $2, $3, $4, $5, $6, 'pending') ON CONFLICT(key) DO NOTHING",
                {n.key, n.player, n.kind, n.room, n.data, now_ms}, error))
      return false;
  if (!mine) return true;
  std::vector<std::string> at(static_cast<std::size_t>(std::max(mine->seats, 0)));
  for (const auto& [seat, player] : mine->players)
    if (seat >= 0 && seat < mine->seats) at[static_cast<std::size_t>(seat)] = player;
  for (std::size_t seat = 0; seat < at.size(); ++seat) {
    const auto s = static_cast<std::int64_t>(seat);
    const bool ok =
        at[seat].empty()
            ? db.run("DELETE FROM seated_games WHERE room = $1 AND seat = $2", {room, s}, error)
                  .has_value()
            : db.run(
                    "INSERT INTO seated_games(room, seat, player, name, state, acting, turn, "
                    "clock, deadline_ms, seats, vacation, updated_ms) VALUES($1, $2, $3, $4, $5, "
                    "$6, $7, $8, $9, $10, $11, $12) ON CONFLICT(room, seat) DO UPDATE SET "
                    "player = excluded.player, name = excluded.name, state = excluded.state, "
                    "acting = excluded.acting, turn = excluded.turn, clock = excluded.clock, "
                    "deadline_ms = excluded.deadline_ms, seats = excluded.seats, "
                    "vacation = excluded.vacation, updated_ms = excluded.updated_ms",
                    {room, s, at[seat], mine->name, mine->state, std::int64_t{mine->acting},
                     mine->turn, mine->clock, mine->deadline_ms, mine->seat_list, mine->vacation,
                     mine->updated_ms},
                    error)
                  .has_value();
    if (!ok) return false;
  }
  return db
      .run("DELETE FROM seated_games WHERE room = $1 AND seat >= $2",
           {room, std::int64_t{mine->seats}}, error)
      .has_value();
}

bool forget_room_rows(sql::connection& db, const std::string& room, std::string& error) {
  return db.run("DELETE FROM seated_games WHERE room = $1", {room}, error).has_value();
}

}  // namespace carcassonne::server
