// The directory's failover calls on a private Redis: the unleased rooms among a list (the ones a
// live instance may adopt), and a restarted instance giving up the leases of its previous life
// without touching the ones others took.
#include <doctest/doctest.h>

#include "cluster/directory.hpp"
#include "private_redis.hpp"

using namespace carcassonne::server;
using carcassonne::testing::started_redis;

TEST_CASE("directory failover: unleased rooms, and a restart's leases given up") {
  auto redis = started_redis();
  if (!redis) return;
  std::string error;
  auto a = room_directory::open({redis->url(), "a", "ws://a/ws"}, error);
  auto b = room_directory::open({redis->url(), "b", "ws://b/ws"}, error);
  REQUIRE_MESSAGE((a && b), error);
  room_lease holder;
  CHECK(a->acquire("r1", holder, error) == 1u);
  CHECK(a->acquire("r2", holder, error) == 1u);
  CHECK(b->acquire("r3", holder, error) == 1u);
  CHECK(a->unleased({"r0", "r1", "r2", "r3", "r4"}, error) == std::vector<std::string>{"r0", "r4"});
  CHECK(a->unleased({}, error).empty());
  CHECK(error.empty());

  // "a" comes back: its leases go at once, b's stays; the rooms are anybody's, each with a new
  // generation for whoever takes it.
  CHECK(redis->cli("SET carcassonne:lease:r2 'b 7'"));  // r2 was meanwhile taken by b
  CHECK(a->release_owned(error));
  CHECK(a->unleased({"r1", "r2", "r3"}, error) == std::vector<std::string>{"r1"});
  CHECK(b->acquire("r1", holder, error) == 2u);
  CHECK(a->heartbeat(0, error).empty());  // nothing left to renew, nothing reported lost
  auto lease = a->lease_of("r1", error);
  REQUIRE(lease);
  CHECK(lease->owner == "b");

  // A Redis that lost its counters is raised above the store's generation, never lowered.
  CHECK(a->raise_generation("r1", 9, error));
  CHECK(a->raise_generation("r1", 4, error));
  a->release("r1");
  b->release("r1");
  CHECK(a->acquire("r1", holder, error) == 10u);

  // Redis gone: an error, never a list that says "nobody leases these".
  REQUIRE(redis->kill());
  error.clear();
  CHECK(a->unleased({"r1"}, error).empty());
  CHECK_FALSE(error.empty());
}
