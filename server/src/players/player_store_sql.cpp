#include "players/player_store_sql.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace carcassonne::server {

namespace {

constexpr const char* deleted_name = "deleted player";

player_account account_of(const sql::rows& r) {
  player_account p;
  p.id = r.text(0, 0);
  p.name = r.text(0, 1);
  p.guest = r.integer(0, 2) != 0;
  p.bot = r.integer(0, 3) != 0;
  p.banned = r.integer(0, 4) != 0;
  p.deleted = r.integer(0, 5) != 0;
  p.created_ms = r.integer(0, 6);
  return p;
}

#define PLAYER_COLUMNS "SELECT id, name, guest, bot, banned, deleted, created_ms FROM players "

// A stored game's seats; names are replaced by the players' current ones afterwards.
bool parse_seats(const std::string& text, game_summary& g, std::string& error) {
  const auto seats = nlohmann::json::parse(text, nullptr, false);
  if (!seats.is_array()) return error = "game " + g.room + ": unreadable seats", false;
  for (const auto& s : seats) {
    if (!s.is_object()) return error = "game " + g.room + ": unreadable seats", false;
    g.seats.push_back({s.value("player", ""), s.value("name", ""), s.value("score", 0),
                       s.value("forfeited", false)});
  }
  return true;
}

}  // namespace

bool sql_player_store::in_transaction(const work_fn& work, std::string& error) {
  return with_connection(
      [&](sql::connection& db, std::string& why) {
        if (!db.begin_write(why)) return false;
        if (work(db, why) && db.commit(why)) return true;
        db.rollback();
        return false;
      },
      error);
}

bool sql_player_store::create_player(const player_account& p, const std::string& key_hash,
                                     std::string& error) {
  return with_connection(
      [&](sql::connection& db, std::string& why) {
        return db
            .run(
                "INSERT INTO players(id, name, name_key, guest, bot, banned, deleted, created_ms, "
                "key_hash, password_hash) VALUES($1, $2, NULL, $3, $4, $5, 0, $6, $7, '')",
                {p.id, p.name, std::int64_t{p.guest}, std::int64_t{p.bot}, std::int64_t{p.banned},
                 p.created_ms, key_hash},
                why)
            .has_value();
      },
      error);
}

std::optional<player_account> sql_player_store::player_where(const char* sql,
                                                             const std::string& key,
                                                             std::string& error) {
  std::optional<player_account> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.run(sql, {key}, why);
        if (r && !r->empty()) out = account_of(*r);
        return r.has_value();
      },
      error);
  return out;
}

std::optional<player_account> sql_player_store::player_by_id(const std::string& id,
                                                             std::string& error) {
  return player_where(PLAYER_COLUMNS "WHERE id = $1", id, error);
}

std::optional<player_account> sql_player_store::player_by_name(const std::string& name_key,
                                                               std::string& error) {
  return player_where(PLAYER_COLUMNS "WHERE name_key = $1", name_key, error);
}

std::optional<std::string> sql_player_store::column_of(const char* sql, const std::string& id,
                                                       std::string& error) {
  std::optional<std::string> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.run(sql, {id}, why);
        if (r && !r->empty()) out = r->text(0, 0);
        return r.has_value();
      },
      error);
  return out;
}

std::optional<std::string> sql_player_store::key_hash(const std::string& id, std::string& error) {
  return column_of("SELECT key_hash FROM players WHERE id = $1", id, error);
}

std::optional<std::string> sql_player_store::password_hash(const std::string& id,
                                                           std::string& error) {
  return column_of("SELECT password_hash FROM players WHERE id = $1", id, error);
}

// A claim (with a password: the guest becomes a named player) or a moderator's rename (without).
// A guest renamed keeps no name_key: the name shows, but is not reserved for it.
claim_result sql_player_store::take_name(const std::string& id, const std::string& name,
                                         const std::string& name_key,
                                         const std::string* password_hash, std::string& error) {
  auto answer = claim_result::failed;
  const bool ok = in_transaction(
      [&](sql::connection& db, std::string& why) {
        answer = claim_result::failed;
        const auto p = db.run("SELECT guest, deleted FROM players WHERE id = $1", {id}, why);
        if (!p) return false;
        if (p->empty() || p->integer(0, 1) != 0)
          return answer = claim_result::no_such_player, false;
        const bool guest = p->integer(0, 0) != 0;
        if (password_hash && !guest) return answer = claim_result::not_a_guest, false;
        sql::connection::outcome out;
        std::optional<sql::rows> done;
        if (password_hash) {
          done = db.run(
              "UPDATE players SET name = $2, name_key = $3, guest = 0, password_hash = $4 "
              "WHERE id = $1",
              {id, name, name_key, *password_hash}, why, &out);
        } else if (guest) {
          const auto other =
              db.run("SELECT 1 FROM players WHERE name_key = $1 AND id <> $2", {name_key, id}, why);
          if (!other) return false;
          if (!other->empty()) return answer = claim_result::name_taken, false;
          done = db.run("UPDATE players SET name = $2 WHERE id = $1", {id, name}, why);
        } else {
          done = db.run("UPDATE players SET name = $2, name_key = $3 WHERE id = $1",
                        {id, name, name_key}, why, &out);
        }
        if (!done && out.unique_violation) return answer = claim_result::name_taken, false;
        if (!done) return false;
        answer = claim_result::done;
        return true;
      },
      error);
  if (!ok && answer != claim_result::failed) error.clear();  // a refusal, not a failure
  return ok ? claim_result::done : answer == claim_result::done ? claim_result::failed : answer;
}

claim_result sql_player_store::claim_name(const std::string& id, const std::string& name,
                                          const std::string& name_key,
                                          const std::string& password_hash, std::string& error) {
  return take_name(id, name, name_key, &password_hash, error);
}

claim_result sql_player_store::rename(const std::string& id, const std::string& name,
                                      const std::string& name_key, std::string& error) {
  return take_name(id, name, name_key, nullptr, error);
}

bool sql_player_store::set_password(const std::string& id, const std::string& password_hash,
                                    std::string& error) {
  return with_connection(
      [&](sql::connection& db, std::string& why) {
        sql::connection::outcome out;
        if (!db.run("UPDATE players SET password_hash = $2 WHERE id = $1 AND deleted = 0",
                    {id, password_hash}, why, &out))
          return false;
        return out.changed == 1 || (why = "no such player: " + id, false);
      },
      error);
}

// A ban also ends the player's sessions: a banned player is signed out everywhere at once.
bool sql_player_store::set_banned(const std::string& id, bool banned, std::string& error) {
  return in_transaction(
      [&](sql::connection& db, std::string& why) {
        sql::connection::outcome out;
        if (!db.run("UPDATE players SET banned = $2 WHERE id = $1", {id, std::int64_t{banned}}, why,
                    &out))
          return false;
        if (out.changed != 1) return why = "no such player: " + id, false;
        return !banned ||
               db.run("UPDATE sessions SET revoked = 1 WHERE player = $1", {id}, why).has_value();
      },
      error);
}

bool sql_player_store::delete_player(const std::string& id, std::string& error) {
  return in_transaction(
      [&](sql::connection& db, std::string& why) {
        sql::connection::outcome out;
        if (!db.run("UPDATE players SET name = $2, name_key = NULL, deleted = 1, key_hash = '', "
                    "password_hash = '' WHERE id = $1",
                    {id, std::string(deleted_name)}, why, &out))
          return false;
        if (out.changed != 1) return why = "no such player: " + id, false;
        return db.run("DELETE FROM identities WHERE player = $1", {id}, why) &&
               db.run("DELETE FROM sessions WHERE player = $1", {id}, why) &&
               db.run("DELETE FROM bot_tokens WHERE player = $1", {id}, why);
      },
      error);
}

std::optional<std::string> sql_player_store::player_of_identity(const std::string& issuer,
                                                                const std::string& subject,
                                                                std::string& error) {
  std::optional<std::string> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.run("SELECT player FROM identities WHERE issuer = $1 AND subject = $2",
                              {issuer, subject}, why);
        if (r && !r->empty()) out = r->text(0, 0);
        return r.has_value();
      },
      error);
  return out;
}

bool sql_player_store::link_identity(const std::string& issuer, const std::string& subject,
                                     const std::string& player, std::string& error) {
  return in_transaction(
      [&](sql::connection& db, std::string& why) {
        if (!db.run("INSERT INTO identities(issuer, subject, player) VALUES($1, $2, $3) "
                    "ON CONFLICT(issuer, subject) DO NOTHING",
                    {issuer, subject, player}, why))
          return false;
        const auto r = db.run("SELECT player FROM identities WHERE issuer = $1 AND subject = $2",
                              {issuer, subject}, why);
        if (!r || r->empty()) return false;
        return r->text(0, 0) == player || (why = "the identity belongs to another player", false);
      },
      error);
}

bool sql_player_store::create_session(const std::string& token_hash, const std::string& player,
                                      std::int64_t created_ms, std::int64_t expires_ms,
                                      std::string& error) {
  return with_connection(
      [&](sql::connection& db, std::string& why) {
        return db
            .run(
                "INSERT INTO sessions(token_hash, player, created_ms, expires_ms, revoked) "
                "VALUES($1, $2, $3, $4, 0)",
                {token_hash, player, created_ms, expires_ms}, why)
            .has_value();
      },
      error);
}

std::optional<player_session> sql_player_store::session(const std::string& token_hash,
                                                        std::string& error) {
  std::optional<player_session> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r =
            db.run("SELECT player, expires_ms, revoked FROM sessions WHERE token_hash = $1",
                   {token_hash}, why);
        if (r && !r->empty())
          out = player_session{r->text(0, 0), r->integer(0, 1), r->integer(0, 2) != 0};
        return r.has_value();
      },
      error);
  return out;
}

bool sql_player_store::revoke_session(const std::string& token_hash, std::string& error) {
  return with_connection(
      [&](sql::connection& db, std::string& why) {
        return db.run("UPDATE sessions SET revoked = 1 WHERE token_hash = $1", {token_hash}, why)
            .has_value();
      },
      error);
}

bool sql_player_store::revoke_sessions_of(const std::string& player, std::string& error) {
  return with_connection(
      [&](sql::connection& db, std::string& why) {
        return db.run("UPDATE sessions SET revoked = 1 WHERE player = $1", {player}, why)
            .has_value();
      },
      error);
}

std::optional<std::vector<rating_row>> sql_player_store::ratings_of(const std::string& player,
                                                                    std::string& error) {
  std::optional<std::vector<rating_row>> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r =
            db.run("SELECT pool, r, rd, sigma, games FROM ratings WHERE player = $1 ORDER BY pool",
                   {player}, why);
        if (!r) return false;
        out.emplace();
        for (std::size_t i = 0; i < r->size(); ++i)
          out->push_back(
              {r->text(i, 0), {r->real(i, 1), r->real(i, 2), r->real(i, 3)}, r->integer(i, 4)});
        return true;
      },
      error);
  return out;
}

std::optional<std::vector<rating_point>> sql_player_store::rating_history(const std::string& player,
                                                                          const std::string& pool,
                                                                          std::int64_t limit,
                                                                          std::string& error) {
  std::optional<std::vector<rating_point>> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.run(
            "SELECT room, at_ms, r, rd, sigma FROM rating_history WHERE player = $1 AND pool = $2 "
            "ORDER BY at_ms DESC, room DESC LIMIT $3",
            {player, pool, limit}, why);
        if (!r) return false;
        out.emplace();
        for (std::size_t i = 0; i < r->size(); ++i)
          out->push_back(
              {r->text(i, 0), r->integer(i, 1), {r->real(i, 2), r->real(i, 3), r->real(i, 4)}});
        return true;
      },
      error);
  return out;
}

std::optional<std::vector<leaderboard_row>> sql_player_store::leaderboard(const std::string& pool,
                                                                          std::int64_t offset,
                                                                          std::int64_t limit,
                                                                          std::int64_t& total,
                                                                          std::string& error) {
  std::optional<std::vector<leaderboard_row>> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        if (!db.begin_read(why)) return false;
        // A walk of ratings_board, (pool, provisional, r DESC, player), which holds all the
        // page's order: the rows skipped by the offset are read from the index alone, and only
        // the page's own rows are joined.
        const auto count = db.run("SELECT COUNT(*) FROM ratings WHERE pool = $1", {pool}, why);
        const auto r =
            count ? db.run(
                        "SELECT g.player, COALESCE(p.name, ''), g.r, g.rd, g.sigma, g.games, "
                        "COALESCE(p.bot, 0) "
                        "FROM (SELECT player, provisional, r FROM ratings WHERE pool = $1 "
                        "ORDER BY provisional, r DESC, player LIMIT $2 OFFSET $3) AS page "
                        "JOIN ratings g ON g.player = page.player AND g.pool = $1 "
                        "LEFT JOIN players p ON p.id = g.player "
                        "ORDER BY page.provisional, page.r DESC, page.player",
                        {pool, limit, offset}, why)
                  : std::nullopt;
        db.rollback();  // read only
        if (!r) return false;
        total = count->integer(0, 0);
        out.emplace();
        for (std::size_t i = 0; i < r->size(); ++i)
          out->push_back({r->text(i, 0),
                          r->text(i, 1),
                          r->integer(i, 6) != 0,
                          {r->real(i, 2), r->real(i, 3), r->real(i, 4)},
                          r->integer(i, 5)});
        return true;
      },
      error);
  return out;
}

std::optional<game_summary> sql_player_store::finished_game(const std::string& room, bool& found,
                                                            std::string& error) {
  std::optional<game_summary> out;
  found = false;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        auto r =
            db.run("SELECT finished_ms, pool, rated, seats FROM finished_games WHERE room = $1",
                   {room}, why);
        if (!r) return false;
        game_summary g;
        g.room = room;
        if (!r->empty()) {
          g.finished_ms = r->integer(0, 0);
          g.pool = r->text(0, 1);
          g.rated = r->integer(0, 2) != 0;
          if (!parse_seats(r->text(0, 3), g, why)) return false;
          found = true;
        }
        out = std::move(g);
        return true;
      },
      error);
  return out;
}

std::optional<std::vector<game_summary>> sql_player_store::games(
    const std::string& player, std::int64_t from_ms, std::int64_t to_ms, std::int64_t offset,
    std::int64_t limit, std::int64_t& total, std::string& error) {
  if (to_ms <= 0) to_ms = std::numeric_limits<std::int64_t>::max();  // no upper bound
  std::optional<std::vector<game_summary>> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        if (!db.begin_read(why)) return false;
        std::optional<sql::rows> count, page;
        if (!player.empty()) {  // a walk of game_seats_by_player
          count = db.run(
              "SELECT COUNT(*) FROM game_seats WHERE player = $1 AND finished_ms >= $2 AND "
              "finished_ms < $3",
              {player, from_ms, to_ms}, why);
          if (count)
            page = db.run(
                "SELECT f.room, f.finished_ms, f.pool, f.rated, f.seats FROM (SELECT room, "
                "finished_ms FROM game_seats WHERE player = $1 AND finished_ms >= $2 AND "
                "finished_ms < $3 ORDER BY finished_ms DESC, room DESC LIMIT $4 OFFSET $5) AS s "
                "JOIN finished_games f ON f.room = s.room ORDER BY s.finished_ms DESC, s.room DESC",
                {player, from_ms, to_ms, limit, offset}, why);
        } else {  // a walk of finished_games_by_time
          count = db.run(
              "SELECT COUNT(*) FROM finished_games WHERE finished_ms >= $1 AND finished_ms < $2",
              {from_ms, to_ms}, why);
          if (count)
            page = db.run(
                "SELECT f.room, f.finished_ms, f.pool, f.rated, f.seats FROM (SELECT room, "
                "finished_ms FROM finished_games WHERE finished_ms >= $1 AND finished_ms < $2 "
                "ORDER BY finished_ms DESC, room DESC LIMIT $3 OFFSET $4) AS s JOIN finished_games "
                "f ON f.room = s.room ORDER BY s.finished_ms DESC, s.room DESC",
                {from_ms, to_ms, limit, offset}, why);
        }
        std::set<std::string> players;
        std::vector<game_summary> games;
        if (page)
          for (std::size_t i = 0; i < page->size(); ++i) {
            auto& g = games.emplace_back();
            g.room = page->text(i, 0);
            g.finished_ms = page->integer(i, 1);
            g.pool = page->text(i, 2);
            g.rated = page->integer(i, 3) != 0;
            if (!parse_seats(page->text(i, 4), g, why)) return db.rollback(), false;
            for (const auto& s : g.seats)
              if (!s.player.empty()) players.insert(s.player);
          }
        // The players' names as they are now (a deleted player's is "deleted player"), and
        // whether they are bots.
        std::map<std::string, std::pair<std::string, bool>> names;
        // Eight at a time: a page of 20 games of 2 to 6 seats is a few round trips, not one per
        // player (unused places repeat the last id).
        std::vector<std::string> ids(players.begin(), players.end());
        for (std::size_t i = 0; page && i < ids.size(); i += 8) {
          const auto id = [&](std::size_t k) { return ids[std::min(i + k, ids.size() - 1)]; };
          const auto n = db.run(
              "SELECT id, name, bot FROM players WHERE id IN ($1, $2, $3, $4, $5, $6, $7, $8)",
              {id(0), id(1), id(2), id(3), id(4), id(5), id(6), id(7)}, why);
          if (!n) page.reset();
          for (std::size_t k = 0; n && k < n->size(); ++k)
            names[n->text(k, 0)] = {n->text(k, 1), n->integer(k, 2) != 0};
        }
        db.rollback();  // read only
        if (!page) return false;
        for (auto& g : games)
          for (auto& s : g.seats)
            if (const auto n = names.find(s.player); n != names.end()) {
              s.name = n->second.first;
              s.bot = n->second.second;
            }
        total = count->integer(0, 0);
        out = std::move(games);
        return true;
      },
      error);
  return out;
}

}  // namespace carcassonne::server
