// Per-address limits with an explicit clock: connections, new connections per second, the shared
// message budget, room creation, and the client address behind a trusted proxy.
#include <doctest/doctest.h>

#include "transport/address_limits.hpp"

using namespace carcassonne::server;
using clock_type = address_limits::clock;

namespace {

config limited() {
  config c;
  c.exempt_addresses = "127.0.0.1";
  c.max_connections_per_address = 2;
  c.address_connection_rate = 1;
  c.address_connection_burst = 3;
  c.address_message_rate = 10;
  c.address_message_burst = 5;
  c.address_room_rate = 0.5;
  c.address_room_burst = 2;
  return c;
}

}  // namespace

TEST_CASE("address limits: concurrent connections are capped and freed when a lease ends") {
  const auto c = limited();
  address_limits limits(c);
  const auto t0 = clock_type::now();
  address_limits::refusal why;
  auto a = limits.admit("10.0.0.1", why, t0);
  auto b = limits.admit("10.0.0.1", why, t0);
  REQUIRE(a);
  REQUIRE(b);
  CHECK_FALSE(limits.admit("10.0.0.1", why, t0));
  CHECK(why == address_limits::refusal::connections);
  CHECK(limits.admit("10.0.0.2", why, t0));  // another address is not concerned
  a.reset();
  CHECK(limits.admit("10.0.0.1", why, t0));  // the third token of the burst
}

TEST_CASE("address limits: new connections per second, refilled by the clock") {
  const auto c = limited();
  address_limits limits(c);
  const auto t0 = clock_type::now();
  address_limits::refusal why;
  for (int i = 0; i < 3; ++i) CHECK(limits.admit("10.0.0.1", why, t0));  // each lease dropped
  CHECK_FALSE(limits.admit("10.0.0.1", why, t0));
  CHECK(why == address_limits::refusal::connection_rate);
  CHECK_FALSE(limits.admit("10.0.0.1", why, t0 + std::chrono::milliseconds(900)));
  CHECK(limits.admit("10.0.0.1", why, t0 + std::chrono::milliseconds(1100)));
}

TEST_CASE("address limits: an address refused faster than its rate is shunned until it pauses") {
  const auto c = limited();  // 1 connection a second, a burst of 3
  address_limits limits(c);
  const auto t0 = clock_type::now();
  address_limits::refusal why;
  for (int i = 0; i < 3; ++i) CHECK(limits.admit("10.0.0.1", why, t0));
  // Refusals as fast as admissions are allowed: a client that retries is not shunned.
  for (int i = 0; i < 3; ++i) {
    CHECK_FALSE(limits.admit("10.0.0.1", why, t0));
    CHECK_FALSE(limits.shunned("10.0.0.1", t0));
  }
  CHECK_FALSE(limits.admit("10.0.0.1", why, t0));  // one too many: a flood
  CHECK(limits.shunned("10.0.0.1", t0));
  CHECK_FALSE(limits.shunned("10.0.0.2", t0));  // another address is not concerned
  // Each connection while shunned starts the pause again; a whole pause ends it.
  const auto half = t0 + std::chrono::milliseconds(500);
  CHECK(limits.shunned("10.0.0.1", half));
  CHECK(limits.shunned("10.0.0.1", half + std::chrono::milliseconds(900)));
  const auto after = half + std::chrono::milliseconds(900) + address_limits::shun_time;
  CHECK_FALSE(limits.shunned("10.0.0.1", after));
  CHECK(limits.admit("10.0.0.1", why, after));  // its bucket has refilled meanwhile
  // Exempt addresses are never refused, so never shunned.
  for (int i = 0; i < 10; ++i) CHECK(limits.admit("127.0.0.1", why, t0));
  CHECK_FALSE(limits.shunned("127.0.0.1", t0));
}

TEST_CASE("address limits: one message budget for all the connections of an address") {
  const auto c = limited();
  address_limits limits(c);
  const auto t0 = clock_type::now();
  address_limits::refusal why;
  auto a = limits.admit("10.0.0.1", why, t0);
  auto b = limits.admit("10.0.0.1", why, t0);
  int allowed = 0;
  for (int i = 0; i < 4; ++i) allowed += a->take_message(t0) + b->take_message(t0);
  CHECK(allowed == 5);
  CHECK(a->take_message(t0 + std::chrono::milliseconds(100)));  // 10 a second
  CHECK_FALSE(b->take_message(t0 + std::chrono::milliseconds(100)));
  CHECK(a->take_room(t0));
  CHECK(b->take_room(t0));
  CHECK_FALSE(a->take_room(t0));
  CHECK(a->take_room(t0 + std::chrono::seconds(2)));
}

TEST_CASE("address limits: exempt addresses are not limited, nor remembered") {
  const auto c = limited();
  address_limits limits(c);
  const auto t0 = clock_type::now();
  address_limits::refusal why;
  std::vector<std::unique_ptr<address_limits::lease>> held;
  for (int i = 0; i < 10; ++i) {
    held.push_back(limits.admit("127.0.0.1", why, t0));
    REQUIRE(held.back());
    CHECK(held.back()->exempt());
    for (int m = 0; m < 10; ++m) CHECK(held.back()->take_message(t0));
  }
  CHECK(limits.tracked() == 0);
}

TEST_CASE("address limits: idle addresses are forgotten a few at a time") {
  const auto c = limited();
  address_limits limits(c);
  const auto t0 = clock_type::now();
  address_limits::refusal why;
  for (int i = 0; i < 20; ++i) limits.admit("10.0.1." + std::to_string(i), why, t0);
  CHECK(limits.tracked() == 20);
  // Later, every bucket is full again: each admission forgets a few idle addresses.
  const auto later = t0 + std::chrono::seconds(60);
  for (int i = 0; i < 10; ++i) limits.admit("10.0.2.1", why, later);
  CHECK(limits.tracked() <= 2);
}

TEST_CASE("address limits: X-Forwarded-For counts only from an exempt proxy, last entry") {
  auto c = limited();
  CHECK(client_address(c, "127.0.0.1", "203.0.113.9") == "127.0.0.1");  // not trusted
  c.trust_forwarded_for = true;
  CHECK(client_address(c, "127.0.0.1", "203.0.113.9") == "203.0.113.9");
  CHECK(client_address(c, "127.0.0.1", "1.2.3.4, 203.0.113.9") == "203.0.113.9");
  CHECK(client_address(c, "127.0.0.1", "") == "127.0.0.1");
  CHECK(client_address(c, "198.51.100.1", "203.0.113.9") == "198.51.100.1");  // not the proxy
}
