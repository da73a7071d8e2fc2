#include "players/player_store.hpp"

#include "players/player_store_sql.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

std::unique_ptr<player_store> player_store::open(const std::string& location, std::string& error) {
  return is_postgres_url(location) ? open_postgres_player_store(location, error)
                                   : open_sqlite_player_store(location, error);
}

}  // namespace carcassonne::server
