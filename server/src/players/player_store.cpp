#include "players/player_store.hpp"

#include "players/player_store_sql.hpp"
#include "store/game_index.hpp"

namespace carcassonne::server {

// The store's tables too: the pages read them, whichever of the two opens the database first.
std::unique_ptr<player_store> player_store::open(const std::string& location, std::string& error) {
  auto db = sql::database::open(
      location, {players_schema, vacations_schema, bot_tokens_schema, game_index_schema},
      "the players' tables", error);
  if (!db) return nullptr;
  return std::make_unique<sql_player_store>(std::move(db));
}

}  // namespace carcassonne::server
