// A server in a cluster (--redis, docs/scaling.md): it registers in the room directory with its
// public URL, takes the lease of each room it creates, and while Redis is unreachable (at start
// or later) it plays on but refuses new rooms, and /healthz says so.
#include <unistd.h>

#include "../server/private_redis.hpp"
#include "cluster/directory.hpp"
#include "e2e_client.hpp"

using namespace e2e;
using carcassonne::server::room_directory;

namespace {

carcassonne::server::config cluster_config(const std::string& redis, const std::string& id) {
  auto c = test_config();
  c.redis_url = redis;
  c.instance_id = id;
  c.public_url = "ws://" + id + ".example:80/ws";
  return c;
}

// Polls /healthz (the heartbeat runs on its own clock) until it says `body`, at most 10 s.
bool health_becomes(std::uint16_t port, const std::string& body) {
  for (int i = 0; i < 200; ++i) {
    if (http_get(port, "/healthz").body == body) return true;
    ::usleep(50'000);
  }
  return false;
}

}  // namespace

TEST_CASE(
    "e2e cluster: Redis unreachable at start: games go on, new rooms refused, /healthz says") {
  const auto nowhere =
      "redis://127.0.0.1:" + std::to_string(carcassonne::testing::free_loopback_port());
  test_server server(cluster_config(nowhere, "lonely"));
  const auto h = http_get(server.port(), "/healthz");
  CHECK(h.status == 200);
  CHECK(h.body == "degraded: redis unreachable, new rooms refused\n");
  ws_client a(server.port());
  auto r = a.request({{"type", "create_room"}, {"setup", json::object()}, {"seats", 2}});
  CHECK(r["type"] == "error");
  CHECK(r["code"] == "directory_unavailable");
}

TEST_CASE("e2e cluster: registered with its URL, rooms leased; Redis lost and back") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  test_server server(cluster_config(redis->url(), "door1"));
  CHECK(http_get(server.port(), "/healthz").body == "ok\n");
  std::string error;
  auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
  REQUIRE_MESSAGE(watcher, error);
  auto all = watcher->instances(error);
  REQUIRE(all.size() == 1);
  CHECK(all[0].id == "door1");
  CHECK(all[0].url == "ws://door1.example:80/ws");

  ws_client a(server.port()), b(server.port());
  const auto room = create_room(a);
  auto lease = watcher->lease_of(room, error);
  REQUIRE(lease);
  CHECK(lease->owner == "door1");
  CHECK(lease->generation == 1);
  join(a, room, "Ann");
  join(b, room, "Bob");
  table t{{&a, &b}, {}};
  t.start(a);
  t.play(4);

  REQUIRE(redis->kill());
  REQUIRE(health_becomes(server.port(), "degraded: redis unreachable, new rooms refused\n"));
  t.play(4);  // the game here goes on
  auto refused = a.request({{"type", "create_room"}, {"setup", json::object()}, {"seats", 2}});
  CHECK(refused["code"] == "directory_unavailable");

  REQUIRE(redis->restart());
  REQUIRE(health_becomes(server.port(), "ok\n"));
  ws_client c(server.port());
  create_room(c);
}
