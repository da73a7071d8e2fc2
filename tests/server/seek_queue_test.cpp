// The queue of seekers (competition/seek_queue.hpp): in memory, and on a private Redis shared by
// two instances (leadership, atomic take, pruning a dead instance's seeks, match notices).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "cluster/seek_queue_redis.hpp"
#include "competition/seek_queue.hpp"
#include "private_redis.hpp"

using namespace carcassonne::server;
using competition::seek;
using competition::seek_queue;

namespace seek_queue_cases {

seek seek_of(const std::string& player, const std::string& instance) {
  seek s{player, "name " + player, 1500, 42, {}, instance, ""};
  s.prefs.seats = 2;
  return s;
}

std::vector<std::string> players_in(seek_queue& q) {
  std::string error;
  const auto all = q.all(error);
  REQUIRE_MESSAGE(all, error);
  std::vector<std::string> out;
  for (const auto& s : *all) out.push_back(s.player);
  std::sort(out.begin(), out.end());
  return out;
}

// The behaviour both queues share, on `a` and `b`, two instances' views of one queue.
void check_shared_queue(seek_queue& a, seek_queue& b) {
  std::string error;
  CHECK(a.add(seek_of("p1", "i1"), error) == seek_queue::added::yes);
  CHECK(b.add(seek_of("p1", "i2"), error) == seek_queue::added::already_seeking);
  CHECK(b.add(seek_of("p2", "i2"), error) == seek_queue::added::yes);
  CHECK(a.add(seek_of("p3", "i1"), error) == seek_queue::added::yes);
  const auto all = b.all(error);
  REQUIRE(all);
  REQUIRE(all->size() == 3);
  CHECK(std::find(all->begin(), all->end(), seek_of("p1", "i1")) != all->end());
  CHECK(players_in(a) == std::vector<std::string>{"p1", "p2", "p3"});

  CHECK(b.remove("p3", error));
  CHECK_FALSE(a.remove("p3", error));
  // All or nothing: p3 is gone, so p1 stays.
  const std::vector<std::string> p1_p3{"p1", "p3"}, p1_p2{"p1", "p2"};
  CHECK_FALSE(a.take(p1_p3, error));
  CHECK(players_in(b) == p1_p2);
  CHECK(a.take(p1_p2, error));
  CHECK_FALSE(b.take(p1_p2, error));
  CHECK(players_in(b).empty());

  // A dead instance's seekers are dropped.
  for (const auto* p : {"x1", "x2"})
    CHECK(a.add(seek_of(p, "i1"), error) == seek_queue::added::yes);
  CHECK(b.add(seek_of("y1", "i2"), error) == seek_queue::added::yes);
  CHECK(b.add(seek_of("z1", "i3"), error) == seek_queue::added::yes);
  const std::vector<std::string> live{"i1", "i3"};
  b.prune(live, error);
  CHECK(players_in(a) == std::vector<std::string>{"x1", "x2", "z1"});
  CHECK(error.empty());
}

// Waits (polling, at most 5 s) until `done`.
template <class F>
bool soon(F done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

std::unique_ptr<seek_queue> redis_queue(const carcassonne::testing::private_redis& r,
                                        const std::string& instance,
                                        std::chrono::milliseconds ttl = std::chrono::seconds(5)) {
  std::string error;
  auto q = make_redis_seek_queue(r.url(), instance, ttl, error);
  REQUIRE_MESSAGE(q, error);
  return q;
}

}  // namespace seek_queue_cases

using namespace seek_queue_cases;

TEST_CASE("seek queue: in memory, one instance") {
  auto q = competition::make_memory_seek_queue();
  check_shared_queue(*q, *q);
  std::string error;
  CHECK(q->lead(error));
  std::vector<std::string> heard;
  CHECK(q->announce("before", error));  // no listener yet: nobody hears it
  q->on_notice([&](const std::string& n) { heard.push_back(n); });
  CHECK(q->announce(R"({"match":1})", error));
  CHECK(heard == std::vector<std::string>{R"({"match":1})"});  // at once, on the caller
}

TEST_CASE("seek queue: Redis, a bad URL or no Redis is a clear error") {
  std::string error;
  const auto nowhere =
      "redis://127.0.0.1:" + std::to_string(carcassonne::testing::free_loopback_port());
  CHECK_FALSE(make_redis_seek_queue(nowhere, "i1", std::chrono::seconds(1), error));
  CHECK(error.find("cannot connect") != std::string::npos);
  CHECK_FALSE(make_redis_seek_queue("http://x", "i1", std::chrono::seconds(1), error));
  CHECK(error.find("bad URL") != std::string::npos);
}

TEST_CASE("seek queue: Redis, two instances share one queue") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  auto a = redis_queue(*redis, "i1"), b = redis_queue(*redis, "i2");
  check_shared_queue(*a, *b);
  // A seek added without its instance is the adding instance's.
  std::string error;
  CHECK(b->add(seek{"w1", "", 1500, 0, {}, "", ""}, error) == seek_queue::added::yes);
  const auto all = a->all(error);
  REQUIRE(all);
  CHECK(std::find_if(all->begin(), all->end(), [](const seek& s) {
          return s.player == "w1" && s.instance == "i2";
        }) != all->end());
}

TEST_CASE("seek queue: Redis, one leader at a time, and another when it stops renewing") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  const std::chrono::milliseconds ttl(300);
  auto a = redis_queue(*redis, "i1", ttl), b = redis_queue(*redis, "i2", ttl);
  std::string error;
  CHECK(a->lead(error));
  CHECK_FALSE(b->lead(error));
  // Renewed within the ttl, a keeps it past the first ttl.
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < 2 * ttl) {
    CHECK(a->lead(error));
    CHECK_FALSE(b->lead(error));
    std::this_thread::sleep_for(ttl / 6);
  }
  // a stops renewing: b takes over once the lock lapses, not before, and a is not leader then.
  const auto stopped = std::chrono::steady_clock::now();
  CHECK(soon([&] { return b->lead(error); }));
  CHECK(std::chrono::steady_clock::now() - stopped >= ttl / 2);
  CHECK_FALSE(a->lead(error));
  CHECK(error.empty());
}

TEST_CASE("seek queue: Redis, two takers racing over one player: exactly one wins") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  auto a = redis_queue(*redis, "i1"), b = redis_queue(*redis, "i2");
  for (int round = 0; round < 50; ++round) {
    const auto p = [&](int k) { return "r" + std::to_string(round) + "-" + std::to_string(k); };
    std::string error;
    for (int k = 0; k < 3; ++k)
      REQUIRE(a->add(seek_of(p(k), "i1"), error) == seek_queue::added::yes);
    const std::vector<std::string> left{p(0), p(1)}, right{p(1), p(2)};
    std::atomic<int> go{0};
    bool a_won = false, b_won = false;
    std::thread ta([&] {
      std::string e;
      ++go;
      while (go < 2) {
      }
      a_won = a->take(left, e);
    });
    std::thread tb([&] {
      std::string e;
      ++go;
      while (go < 2) {
      }
      b_won = b->take(right, e);
    });
    ta.join();
    tb.join();
    CHECK(a_won != b_won);
    // The loser's seekers other than the shared one are still queued.
    CHECK(players_in(*a) == std::vector<std::string>{a_won ? p(2) : p(0)});
    a->remove(p(0), error);
    a->remove(p(2), error);
  }
}

TEST_CASE("seek queue: Redis, a notice reaches every instance, also after Redis restarts") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  auto a = redis_queue(*redis, "i1"), b = redis_queue(*redis, "i2");
  std::mutex m;
  std::vector<std::string> heard_a, heard_b;
  a->on_notice([&](const std::string& n) {
    std::lock_guard l(m);
    heard_a.push_back(n);
  });
  b->on_notice([&](const std::string& n) {
    std::lock_guard l(m);
    heard_b.push_back(n);
  });
  std::string error;
  CHECK(a->announce("one", error));
  const auto heard = [&](const std::vector<std::string>& expected) {
    return soon([&] {
      std::lock_guard l(m);
      return heard_a == expected && heard_b == expected;
    });
  };
  CHECK(heard({"one"}));

  // Redis goes away and comes back: the subscriptions come back with it.
  REQUIRE(redis->kill());
  CHECK_FALSE(a->announce("lost", error));
  REQUIRE(redis->restart());
  const auto subscribers = "redis-cli -p " + std::to_string(redis->port()) +
                           " pubsub numsub carcassonne:matches | grep -qx 2";
  CHECK(soon([&] { return std::system(subscribers.c_str()) == 0; }));
  CHECK(b->announce("two", error));
  CHECK(heard({"one", "two"}));

  // Stopped, an instance hears nothing more (and stops at once).
  b->stop();
  CHECK(a->announce("three", error));
  CHECK(soon([&] {
    std::lock_guard l(m);
    return heard_a.size() == 3;
  }));
  std::lock_guard l(m);
  CHECK(heard_b == std::vector<std::string>{"one", "two"});
}
