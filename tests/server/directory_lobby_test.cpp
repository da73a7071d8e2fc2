// The room directory's lobby as a cluster's lobby reads it (server/src/cluster/cluster_lobby.cpp):
// each live instance's entries with its URL, one entry by instance and room, and the channel that
// names every changed room to a subscriber on a connection of its own.
#include <doctest/doctest.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "cluster/directory.hpp"
#include "private_redis.hpp"

using namespace carcassonne::server;
using carcassonne::testing::started_redis;

TEST_CASE("directory lobby: entries with their owner's URL, one entry, the channel") {
  auto redis = started_redis();
  if (!redis) return;
  std::string error;
  auto a = room_directory::open({redis->url(), "a", "ws://a.example/ws"}, error);
  auto b = room_directory::open({redis->url(), "b", "ws://b.example/ws"}, error);
  REQUIRE_MESSAGE((a && b), error);
  a->heartbeat(1, error);
  REQUIRE(error.empty());

  // A subscriber on b hears every published room id, its own and a's.
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::string> heard;
  bool subscribed_ended = false;
  std::thread listener([&] {
    std::string e;
    b->subscribe_lobby(
        [&](const std::string& room) {
          std::lock_guard lock(m);
          heard.push_back(room);
          cv.notify_all();
        },
        e);
    std::lock_guard lock(m);
    subscribed_ended = true;
    cv.notify_all();
  });
  // The subscription may not be in place yet: publish until it hears one.
  {
    std::unique_lock lock(m);
    for (int i = 0; i < 100 && heard.empty(); ++i) {
      lock.unlock();
      REQUIRE(a->publish_room("r1", R"({"summary":{"id":"r1"}})", error));
      lock.lock();
      cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return !heard.empty(); });
    }
    REQUIRE_FALSE(heard.empty());
    CHECK(heard.front() == "r1");
  }

  // Only live instances' entries: b has not sent a heartbeat yet.
  REQUIRE(b->publish_room("r2", "two", error));
  auto entries = b->lobby_entries(error);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].instance == "a");
  CHECK(entries[0].url == "ws://a.example/ws");
  CHECK(entries[0].room == "r1");
  CHECK(entries[0].summary == R"({"summary":{"id":"r1"}})");
  b->heartbeat(0, error);
  CHECK(b->lobby_entries(error).size() == 2);
  CHECK(b->lobby_entry_of("b", "r2", error) == "two");
  CHECK_FALSE(b->lobby_entry_of("a", "r2", error));
  REQUIRE(a->unpublish_room("r1", error));
  CHECK_FALSE(b->lobby_entry_of("a", "r1", error));
  CHECK(error.empty());

  // stop_subscription() cuts the blocked subscriber at once.
  b->stop_subscription();
  {
    std::unique_lock lock(m);
    CHECK(cv.wait_for(lock, std::chrono::seconds(10), [&] { return subscribed_ended; }));
  }
  listener.join();
  CHECK_FALSE(b->subscribe_lobby([](const std::string&) {}, error));  // stopped for good
}
