// Outside bots' accounts and API tokens (player_store.hpp "Outside bots"), the same SQL on both
// databases.
#include "players/player_store_sql.hpp"

namespace carcassonne::server {

make_bot_result sql_player_store::make_bot(const std::string& id, const std::string& token_hash,
                                           std::int64_t now_ms, std::string& error) {
  auto answer = make_bot_result::failed;
  const bool ok = in_transaction(
      [&](sql::connection& db, std::string& why) {
        answer = make_bot_result::failed;
        // The player's row locked on PostgreSQL: two upgrades at once are one after the other.
        const auto p =
            db.row_locks()
                ? db.run("SELECT guest, bot, deleted FROM players WHERE id = $1 FOR UPDATE", {id},
                         why)
                : db.run("SELECT guest, bot, deleted FROM players WHERE id = $1", {id}, why);
        if (!p) return false;
        if (p->empty() || p->integer(0, 2) != 0)
          return answer = make_bot_result::no_such_player, false;
        if (p->integer(0, 1) != 0) return answer = make_bot_result::already_bot, false;
        if (p->integer(0, 0) != 0) return answer = make_bot_result::guest, false;
        const auto rated = db.run("SELECT 1 FROM ratings WHERE player = $1 LIMIT 1", {id}, why);
        if (!rated) return false;
        if (!rated->empty()) return answer = make_bot_result::rated_games, false;
        if (!db.run("UPDATE players SET bot = 1 WHERE id = $1", {id}, why) ||
            !db.run("INSERT INTO bot_tokens(player, token_hash, created_ms) VALUES($1, $2, $3) "
                    "ON CONFLICT(player) DO UPDATE SET token_hash = excluded.token_hash, "
                    "created_ms = excluded.created_ms",
                    {id, token_hash, now_ms}, why))
          return false;
        answer = make_bot_result::done;
        return true;
      },
      error);
  if (!ok && answer != make_bot_result::failed) error.clear();  // a refusal, not a failure
  return ok                                ? make_bot_result::done
         : answer == make_bot_result::done ? make_bot_result::failed
                                           : answer;
}

bool sql_player_store::set_bot_token(const std::string& id, const std::string& token_hash,
                                     std::int64_t now_ms, std::string& error) {
  return in_transaction(
      [&](sql::connection& db, std::string& why) {
        const auto p =
            db.run("SELECT 1 FROM players WHERE id = $1 AND bot = 1 AND deleted = 0", {id}, why);
        if (!p) return false;
        if (p->empty()) return why = "not a bot account: " + id, false;
        return db
            .run(
                "INSERT INTO bot_tokens(player, token_hash, created_ms) VALUES($1, $2, $3) "
                "ON CONFLICT(player) DO UPDATE SET token_hash = excluded.token_hash, "
                "created_ms = excluded.created_ms",
                {id, token_hash, now_ms}, why)
            .has_value();
      },
      error);
}

std::optional<std::string> sql_player_store::player_of_bot_token(const std::string& token_hash,
                                                                 std::string& error) {
  std::optional<std::string> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r =
            db.run("SELECT player FROM bot_tokens WHERE token_hash = $1", {token_hash}, why);
        if (r && !r->empty()) out = r->text(0, 0);
        return r.has_value();
      },
      error);
  return out;
}

}  // namespace carcassonne::server
