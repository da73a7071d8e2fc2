// Featured games (lobby/featured.hpp): which of the public rooms GET /api/featured shows.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
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

TEST_CASE("featured games: worked out at most once a second, however many ask") {
  using namespace std::chrono_literals;
  featured_cache cache;
  const featured_cache::clock::time_point t0{};
  int listed = 0;
  nlohmann::json rooms = nlohmann::json::array();
  for (int i = 0; i < 25; ++i)
    rooms.push_back({{"id", std::to_string(i)}, {"state", "playing"}, {"spectators", i}});
  const auto list = [&] {
    ++listed;
    return rooms;
  };
  const auto first = cache.get(3, t0, list);
  REQUIRE(first.size() == 3);
  CHECK(first[0]["id"] == "24");
  CHECK(first[2]["id"] == "22");
  // Within the second: the same answer, from the one listing, whatever the limit (up to 20).
  rooms[0]["spectators"] = 1000;
  const auto later = cache.get(20, t0 + 999ms, list);
  CHECK(listed == 1);
  REQUIRE(later.size() == 20);
  CHECK(later[0]["id"] == "24");
  CHECK(later[19]["id"] == "5");
  // A second on, the rooms are listed again: the newly watched room leads.
  const auto fresh = cache.get(1, t0 + 1s, list);
  CHECK(listed == 2);
  REQUIRE(fresh.size() == 1);
  CHECK(fresh[0]["id"] == "0");
  CHECK(fresh[0]["spectators"] == 1000);
  // A caller whose time was read before that computation took the lock: the fresh answer.
  CHECK(cache.get(1, t0 + 900ms, list)[0]["id"] == "0");
  CHECK(listed == 2);
}
