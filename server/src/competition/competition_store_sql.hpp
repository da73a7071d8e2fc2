// The competition store's statements, the same for both databases (store/sql.hpp); the backends
// (competition_store_backends.cpp) own the connection, create the tables and run each call on it
// under their lock.
#pragma once
#include <functional>

#include "competition/competition_store.hpp"
#include "store/sql.hpp"

namespace carcassonne::server::competition {

inline constexpr const char* competition_schema = R"sql(
CREATE TABLE IF NOT EXISTS competitions(
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  state      TEXT NOT NULL,
  finished   INTEGER NOT NULL,
  version    BIGINT NOT NULL,
  updated_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS competitions_by_kind ON competitions(kind, finished, updated_ms);
CREATE TABLE IF NOT EXISTS competition_players(
  competition TEXT NOT NULL,
  player      TEXT NOT NULL,
  PRIMARY KEY(competition, player)
);
CREATE INDEX IF NOT EXISTS competition_players_by_player ON competition_players(player);
)sql";

class sql_competition_store : public competition_store {
 public:
  saved save(const competition_doc& d, std::string& error) override;
  std::optional<competition_doc> load(const std::string& id, std::string& error) override;
  std::optional<std::vector<competition_doc>> unfinished(const std::string& kind,
                                                         std::string& error) override;
  std::optional<std::vector<competition_doc>> recent(const std::string& kind, int limit, int offset,
                                                     std::string& error) override;
  std::optional<std::vector<competition_doc>> of_player(const std::string& player, int limit,
                                                        int offset, std::string& error) override;

 protected:
  // Runs `work` on the connection, one call at a time; false (with `error`) when it failed. A
  // connection found lost is made again and `work` runs once more.
  using work_fn = std::function<bool(sql::connection&, std::string&)>;
  virtual bool with_connection(const work_fn& work, std::string& error) = 0;

 private:
  // Documents (without players) from a query, then their players, in one read snapshot.
  std::optional<std::vector<competition_doc>> documents(const char* sql,
                                                        std::initializer_list<sql::value> params,
                                                        std::string& error);
};

std::unique_ptr<competition_store> open_sqlite_competition_store(const std::string& path,
                                                                 std::string& error);
std::unique_ptr<competition_store> open_postgres_competition_store(const std::string& url,
                                                                   std::string& error);

}  // namespace carcassonne::server::competition
