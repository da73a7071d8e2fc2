// The player store's statements, the same for both databases (store/sql.hpp), on a connection of
// its own (store/sql_database.hpp), which creates the tables.
#pragma once
#include <functional>

#include "players/player_store.hpp"
#include "store/sql_database.hpp"

namespace carcassonne::server {

// The players' own tables; the index of finished games and the ratings are the store's
// (store/game_index.hpp), created by whichever opens the database first.
inline constexpr const char* players_schema = R"sql(
CREATE TABLE IF NOT EXISTS players(
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  name_key      TEXT UNIQUE,
  guest         INTEGER NOT NULL,
  bot           INTEGER NOT NULL,
  banned        INTEGER NOT NULL,
  deleted       INTEGER NOT NULL,
  created_ms    BIGINT NOT NULL,
  key_hash      TEXT NOT NULL,
  password_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS identities(
  issuer  TEXT NOT NULL,
  subject TEXT NOT NULL,
  player  TEXT NOT NULL,
  PRIMARY KEY(issuer, subject)
);
CREATE INDEX IF NOT EXISTS identities_by_player ON identities(player);
CREATE TABLE IF NOT EXISTS sessions(
  token_hash TEXT PRIMARY KEY,
  player     TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  expires_ms BIGINT NOT NULL,
  revoked    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_player ON sessions(player);
)sql";

// Vacations (player_store_vacations.cpp): one row per player who ever took one.
inline constexpr const char* vacations_schema = R"sql(
CREATE TABLE IF NOT EXISTS vacations(
  player     TEXT PRIMARY KEY,
  year       INTEGER NOT NULL,
  used_days  INTEGER NOT NULL,
  started_ms BIGINT NOT NULL,
  until_ms   BIGINT NOT NULL
);
)sql";

// Outside bots' API tokens (player_store_bots.cpp): one per bot account, by its SHA-256.
inline constexpr const char* bot_tokens_schema = R"sql(
CREATE TABLE IF NOT EXISTS bot_tokens(
  player     TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  created_ms BIGINT NOT NULL
);
)sql";

class sql_player_store final : public player_store {
 public:
  explicit sql_player_store(std::unique_ptr<sql::database> db) : db_(std::move(db)) {}
  bool create_player(const player_account& p, const std::string& key_hash,
                     std::string& error) override;
  std::optional<player_account> player_by_id(const std::string& id, std::string& error) override;
  std::optional<player_account> player_by_name(const std::string& name_key,
                                               std::string& error) override;
  std::optional<std::string> key_hash(const std::string& id, std::string& error) override;
  std::optional<std::string> password_hash(const std::string& id, std::string& error) override;
  claim_result claim_name(const std::string& id, const std::string& name,
                          const std::string& name_key, const std::string& password_hash,
                          std::string& error) override;
  bool set_password(const std::string& id, const std::string& password_hash,
                    std::string& error) override;
  claim_result rename(const std::string& id, const std::string& name, const std::string& name_key,
                      std::string& error) override;
  bool set_banned(const std::string& id, bool banned, std::string& error) override;
  bool delete_player(const std::string& id, std::string& error) override;
  std::optional<std::string> player_of_identity(const std::string& issuer,
                                                const std::string& subject,
                                                std::string& error) override;
  bool link_identity(const std::string& issuer, const std::string& subject,
                     const std::string& player, std::string& error) override;
  bool create_session(const std::string& token_hash, const std::string& player,
                      std::int64_t created_ms, std::int64_t expires_ms,
                      std::string& error) override;
  std::optional<player_session> session(const std::string& token_hash, std::string& error) override;
  bool revoke_session(const std::string& token_hash, std::string& error) override;
  bool revoke_sessions_of(const std::string& player, std::string& error) override;
  std::optional<std::vector<rating_row>> ratings_of(const std::string& player,
                                                    std::string& error) override;
  std::optional<std::vector<rating_point>> rating_history(const std::string& player,
                                                          const std::string& pool,
                                                          std::int64_t limit,
                                                          std::string& error) override;
  std::optional<std::vector<leaderboard_row>> leaderboard(const std::string& pool,
                                                          std::int64_t offset, std::int64_t limit,
                                                          std::int64_t& total,
                                                          std::string& error) override;
  std::optional<std::vector<game_summary>> games(const std::string& player, std::int64_t from_ms,
                                                 std::int64_t to_ms, std::int64_t offset,
                                                 std::int64_t limit, std::int64_t& total,
                                                 std::string& error) override;
  std::optional<game_summary> finished_game(const std::string& room, bool& found,
                                            std::string& error) override;
  make_bot_result make_bot(const std::string& id, const std::string& token_hash,
                           std::int64_t now_ms, std::string& error) override;
  bool set_bot_token(const std::string& id, const std::string& token_hash, std::int64_t now_ms,
                     std::string& error) override;
  std::optional<std::string> player_of_bot_token(const std::string& token_hash,
                                                 std::string& error) override;
  std::optional<vacation_row> vacation(const std::string& player, std::string& error) override;
  bool update_vacation(const std::string& player, const std::function<bool(vacation_row&)>& change,
                       std::string& error) override;

 private:
  // Runs `work` on the connection, one call at a time; false (with `error`) when it failed. A
  // connection found lost is made again and `work` runs once more.
  using work_fn = sql::database::work_fn;
  bool with_connection(const work_fn& work, std::string& error) {
    return db_->with_connection(work, error);
  }

  std::unique_ptr<sql::database> db_;
  // `work` in a write transaction, rolled back when it returns false.
  bool in_transaction(const work_fn& work, std::string& error);
  std::optional<player_account> player_where(const char* sql, const std::string& key,
                                             std::string& error);
  std::optional<std::string> column_of(const char* sql, const std::string& id, std::string& error);
  claim_result take_name(const std::string& id, const std::string& name,
                         const std::string& name_key, const std::string* password_hash,
                         std::string& error);
};

}  // namespace carcassonne::server
