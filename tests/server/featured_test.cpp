// Featured games (lobby/featured.hpp): which of the public rooms GET /api/featured shows.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "lobby/featured.hpp"

using namespace carcassonne::server;

TEST_CASE("featured games: the games being played with the most spectators, most first") {
  const auto room = [](const char* id, const char* state, int spectators) {
    return nlohmann::json{{"id", id}, {"state", state}, {"spectators", spectators}};
  };
  const nlohmann::json rooms = {room("a", "playing", 2), room("b", "waiting", 50),
                                room("c", "playing", 7), room("d", "finished", 90),
                                room("e", "playing", 2), room("f", "playing", 0),
                                room("g", "playing", 11)};
  const auto ids = [](const nlohmann::json& picked) {
    std::vector<std::string> out;
    for (const auto& r : picked) out.push_back(r.at("id").get<std::string>());
    return out;
  };
  // Waiting and finished rooms are never featured; ties keep the list's order (oldest first).
  CHECK(ids(pick_featured(rooms, 5)) == std::vector<std::string>{"g", "c", "a", "e", "f"});
  CHECK(ids(pick_featured(rooms, 2)) == std::vector<std::string>{"g", "c"});
  CHECK(pick_featured(nlohmann::json::array(), 5).empty());
}
