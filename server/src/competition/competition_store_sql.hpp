// The competition store's statements, the same for both databases (store/sql.hpp), on a connection
// of its own (store/sql_database.hpp), which creates the tables.
#pragma once
#include <functional>

#include "competition/competition_store.hpp"
#include "store/sql_database.hpp"

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

class sql_competition_store final : public competition_store {
 public:
  explicit sql_competition_store(std::unique_ptr<sql::database> db) : db_(std::move(db)) {}
  saved save(const competition_doc& d, std::string& error) override;
  std::optional<competition_doc> load(const std::string& id, std::string& error) override;
  std::optional<std::vector<competition_doc>> unfinished(const std::string& kind,
                                                         std::string& error) override;
  std::optional<std::vector<competition_doc>> recent(const std::string& kind, int limit, int offset,
                                                     std::string& error) override;
  std::optional<std::vector<competition_doc>> of_player(const std::string& player, int limit,
                                                        int offset, std::string& error) override;

 private:
  // Runs `work` on the connection, one call at a time; false (with `error`) when it failed. A
  // connection found lost is made again and `work` runs once more.
  using work_fn = sql::database::work_fn;
  bool with_connection(const work_fn& work, std::string& error) {
    return db_->with_connection(work, error);
  }
  std::unique_ptr<sql::database> db_;
  // Documents (without players) from a query, then their players, in one read snapshot.
  std::optional<std::vector<competition_doc>> documents(const char* sql,
                                                        std::initializer_list<sql::value> params,
                                                        std::string& error);
};

}  // namespace carcassonne::server::competition
