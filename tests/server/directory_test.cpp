// The room directory on a private Redis: instances and their load, leases with generations (the
// fence), every instance's lobby entries, and Redis going away and coming back.
#include <doctest/doctest.h>

#include "cluster/directory.hpp"
#include "private_redis.hpp"

using namespace carcassonne::server;
using carcassonne::testing::free_loopback_port;
using carcassonne::testing::private_redis;
using carcassonne::testing::started_redis;

namespace {

std::unique_ptr<room_directory> open_as(const private_redis& r, const std::string& id) {
  std::string error;
  auto d = room_directory::open({r.url(), id, "ws://" + id + ".example/ws"}, error);
  REQUIRE_MESSAGE(d, error);
  return d;
}

}  // namespace

TEST_CASE("directory: an unreachable Redis or a bad URL is a clear error at open") {
  std::string error;
  const auto nowhere = "redis://127.0.0.1:" + std::to_string(free_loopback_port());
  CHECK_FALSE(room_directory::open({nowhere, "a", "ws://a/ws"}, error));
  CHECK(error.find("cannot connect") != std::string::npos);
  CHECK(error.find("is Redis running?") != std::string::npos);
  error.clear();
  CHECK_FALSE(room_directory::open({"http://x", "a", "ws://a/ws"}, error));
  CHECK(error.find("bad URL") != std::string::npos);
}

TEST_CASE("directory: instances, leases and lobbies shared through Redis") {
  auto redis = started_redis();
  if (!redis) return;
  auto a = open_as(*redis, "a"), b = open_as(*redis, "b");
  std::string error;
  CHECK(a->heartbeat(5, error).empty());
  CHECK(b->heartbeat(2, error).empty());
  CHECK(error.empty());
  auto all = a->instances(error);
  REQUIRE(all.size() == 2);
  CHECK(all[0].id == "a");
  CHECK(all[0].url == "ws://a.example/ws");
  CHECK(all[1].rooms == 2);
  CHECK(b->least_loaded(error)->id == "b");  // new rooms go where the load is least
  CHECK(a->url_of("b", error) == "ws://b.example/ws");

  // One owner per room; a lease kept is the same generation, a new owner a new one.
  room_lease holder;
  CHECK(a->acquire("r1", holder, error) == 1u);
  CHECK(a->acquire("r1", holder, error) == 1u);
  CHECK_FALSE(b->acquire("r1", holder, error));
  CHECK(holder.owner == "a");
  CHECK(holder.generation == 1);
  CHECK(a->heartbeat(5, error).empty());  // renewed
  // The lease lapses (as when `a` stops renewing): `b` takes it with the next generation, and
  // `a` learns at its next heartbeat that the room is no longer its own.
  REQUIRE(redis->cli("del carcassonne:lease:r1"));
  CHECK(b->acquire("r1", holder, error) == 2u);
  CHECK(a->heartbeat(5, error) == std::vector<std::string>{"r1"});
  CHECK_FALSE(a->acquire("r1", holder, error));
  CHECK(holder.owner == "b");
  CHECK(holder.generation == 2);
  a->release("r1");  // not a's: nothing happens
  CHECK(a->lease_of("r1", error)->owner == "b");
  b->release("r1");
  CHECK_FALSE(a->lease_of("r1", error));

  // Each instance's public rooms are in every lobby; a dead instance's are not.
  CHECK(a->publish_room("r2", R"({"id":"r2"})", error));
  CHECK(b->publish_room("r3", R"({"id":"r3"})", error));
  const std::vector<std::string> both{R"({"id":"r2"})", R"({"id":"r3"})"};
  CHECK(a->lobby(error) == both);
  CHECK(b->lobby(error) == both);
  CHECK(b->unpublish_room("r3", error));
  CHECK(a->lobby(error) == std::vector<std::string>{R"({"id":"r2"})"});
  REQUIRE(redis->cli("del carcassonne:instance:a"));  // a's heartbeat expired
  CHECK(b->lobby(error).empty());
  CHECK(b->instances(error).size() == 1);

  // Redis gone: every call says so at once; back: the same directory goes on.
  REQUIRE(redis->kill());
  error.clear();
  b->heartbeat(2, error);
  CHECK_FALSE(error.empty());
  CHECK_FALSE(b->reachable());
  error.clear();
  CHECK_FALSE(b->acquire("r4", holder, error));
  CHECK_FALSE(error.empty());
  REQUIRE(redis->restart());
  error.clear();
  b->heartbeat(2, error);
  CHECK(error.empty());
  CHECK(b->reachable());
  CHECK(b->acquire("r4", holder, error) == 1u);
}
