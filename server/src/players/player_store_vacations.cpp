// The vacations table (player_store.hpp "Vacations"), the same SQL on both databases.
#include "players/player_store_sql.hpp"

namespace carcassonne::server {

namespace {

vacation_row vacation_of(const sql::rows& r) {
  vacation_row v;
  if (r.empty()) return v;
  v.year = static_cast<int>(r.integer(0, 0));
  v.used_days = static_cast<int>(r.integer(0, 1));
  v.started_ms = r.integer(0, 2);
  v.until_ms = r.integer(0, 3);
  return v;
}

}  // namespace

std::optional<vacation_row> sql_player_store::vacation(const std::string& player,
                                                       std::string& error) {
  std::optional<vacation_row> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r =
            db.run("SELECT year, used_days, started_ms, until_ms FROM vacations WHERE player = $1",
                   {player}, why);
        if (r) out = vacation_of(*r);
        return r.has_value();
      },
      error);
  return out;
}

bool sql_player_store::update_vacation(const std::string& player,
                                       const std::function<bool(vacation_row&)>& change,
                                       std::string& error) {
  return in_transaction(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.row_locks()
                           ? db.run(
                                 "SELECT year, used_days, started_ms, until_ms FROM vacations "
                                 "WHERE player = $1 FOR UPDATE",
                                 {player}, why)
                           : db.run(
                                 "SELECT year, used_days, started_ms, until_ms FROM vacations "
                                 "WHERE player = $1",
                                 {player}, why);
        if (!r) return false;
        vacation_row v = vacation_of(*r);
        if (!change(v)) return true;  // nothing to write: the commit ends the transaction
        return db
            .run(
                "INSERT INTO vacations(player, year, used_days, started_ms, until_ms) "
                "VALUES($1, $2, $3, $4, $5) ON CONFLICT(player) DO UPDATE SET year = "
                "excluded.year, used_days = excluded.used_days, started_ms = excluded.started_ms, "
                "until_ms = excluded.until_ms",
                {player, std::int64_t{v.year}, std::int64_t{v.used_days}, v.started_ms, v.until_ms},
                why)
            .has_value();
      },
      error);
}

}  // namespace carcassonne::server
