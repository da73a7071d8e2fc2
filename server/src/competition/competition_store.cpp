#include "competition/competition_store.hpp"

#include <set>

#include "competition/competition_store_sql.hpp"
#include "store/notify_rows.hpp"
#include "store/store.hpp"

namespace carcassonne::server::competition {

namespace {

#define COMPETITION_COLUMNS \
  "SELECT id, kind, state, finished, version, updated_ms FROM competitions "

competition_doc competition_row(const sql::rows& r, std::size_t i) {
  competition_doc d;
  d.id = r.text(i, 0);
  d.kind = r.text(i, 1);
  d.state = r.text(i, 2);
  d.finished = r.integer(i, 3) != 0;
  d.version = static_cast<std::uint64_t>(r.integer(i, 4));
  d.updated_ms = r.integer(i, 5);
  return d;
}

// A page's bounds as the statements take them (a negative one reads as none).
std::int64_t page_bound(int n) {
  return n < 0 ? 0 : n;
}

}  // namespace

std::unique_ptr<competition_store> competition_store::open(const std::string& location,
                                                           std::string& error) {
  auto db = sql::database::open(location, {competition_schema, notify_rows_schema},
                                "the competitions' tables", error);
  if (!db) return nullptr;
  return std::make_unique<sql_competition_store>(std::move(db));
}

competition_store::saved sql_competition_store::save(const competition_doc& d, std::string& error) {
  if (d.version == 0) return error = "competition " + d.id + ": version 0", saved::failed;
  const auto version = static_cast<std::int64_t>(d.version);
  bool stale = false;
  const bool ok = with_connection(
      [&](sql::connection& db, std::string& why) {
        stale = false;
        if (!db.begin_write(why)) return false;
        const auto write = [&] {
          sql::connection::outcome out;
          if (version == 1) {
            // A row already there (another instance made it) breaks the primary key: stale.
            if (db.run("INSERT INTO competitions(id, kind, state, finished, version, updated_ms) "
                       "VALUES($1, $2, $3, $4, 1, $5)",
                       {d.id, d.kind, d.state, std::int64_t{d.finished}, d.updated_ms}, why, &out))
              return true;
            stale = out.unique_violation;
            return false;
          }
          if (!db.run("UPDATE competitions SET kind = $2, state = $3, finished = $4, version = $5, "
                      "updated_ms = $6 WHERE id = $1 AND version = $7",
                      {d.id, d.kind, d.state, std::int64_t{d.finished}, version, d.updated_ms,
                       version - 1},
                      why, &out))
            return false;
          if (out.changed == 0) return stale = true, false;
          return true;
        };
        bool done = write();
        if (done) {
          done = db.run("DELETE FROM competition_players WHERE competition = $1", {d.id}, why)
                     .has_value();
          // A set: a player listed twice is stored once.
          for (const auto& p : std::set<std::string>(d.players.begin(), d.players.end()))
            done = done && db.run(
                                 "INSERT INTO competition_players(competition, player) "
                                 "VALUES($1, $2)",
                                 {d.id, p}, why)
                               .has_value();
          done = done && write_room_rows(db, d.id, d.notices, nullptr, d.updated_ms, why);
        }
        if (done && db.commit(why)) return true;
        db.rollback();
        return false;
      },
      error);
  if (ok) return saved::yes;
  if (stale) return error.clear(), saved::stale;
  return saved::failed;
}

std::optional<std::vector<competition_doc>> sql_competition_store::documents(
    const char* sql, std::initializer_list<sql::value> params, std::string& error) {
  std::optional<std::vector<competition_doc>> out;
  with_connection(
      [&](sql::connection& db, std::string& why) {
        if (!db.begin_read(why)) return false;
        std::vector<competition_doc> docs;
        const auto r = db.run(sql, params, why);
        bool ok = r.has_value();
        for (std::size_t i = 0; ok && i < r->size(); ++i) docs.push_back(competition_row(*r, i));
        for (auto& d : docs) {
          if (!ok) break;
          const auto p = db.run(
              "SELECT player FROM competition_players WHERE competition = $1 ORDER BY player",
              {d.id}, why);
          ok = p.has_value();
          for (std::size_t i = 0; ok && i < p->size(); ++i) d.players.push_back(p->text(i, 0));
        }
        if (ok && db.commit(why)) {
          out = std::move(docs);
          return true;
        }
        db.rollback();
        return false;
      },
      error);
  return out;
}

std::optional<competition_doc> sql_competition_store::load(const std::string& id,
                                                           std::string& error) {
  auto docs = documents(COMPETITION_COLUMNS "WHERE id = $1", {id}, error);
  if (!docs || docs->empty()) return std::nullopt;
  return std::move(docs->front());
}

std::optional<std::vector<competition_doc>> sql_competition_store::unfinished(
    const std::string& kind, std::string& error) {
  return documents(COMPETITION_COLUMNS "WHERE kind = $1 AND finished = 0 ORDER BY updated_ms, id",
                   {kind}, error);
}

std::optional<std::vector<competition_doc>> sql_competition_store::recent(const std::string& kind,
                                                                          int limit, int offset,
                                                                          std::string& error) {
  return documents(COMPETITION_COLUMNS
                   "WHERE kind = $1 ORDER BY updated_ms DESC, id DESC LIMIT $2 OFFSET $3",
                   {kind, page_bound(limit), page_bound(offset)}, error);
}

std::optional<std::vector<competition_doc>> sql_competition_store::of_player(
    const std::string& player, int limit, int offset, std::string& error) {
  return documents(
      "SELECT c.id, c.kind, c.state, c.finished, c.version, c.updated_ms FROM competitions AS c "
      "JOIN competition_players AS p ON p.competition = c.id WHERE p.player = $1 "
      "ORDER BY c.updated_ms DESC, c.id DESC LIMIT $2 OFFSET $3",
      {player, page_bound(limit), page_bound(offset)}, error);
}

}  // namespace carcassonne::server::competition
