// The accounts' rules without a database: names and their look-alikes, passwords, argon2id, and
// the failed sign-in budgets on a fake clock.
#include <doctest/doctest.h>

#include "players/attempt_limits.hpp"
#include "players/names.hpp"
#include "players/password_hash.hpp"

using namespace carcassonne::server;

TEST_CASE("names: what may be claimed, and which names are the same") {
  for (const char* good : {"Ann", "Ann Smith", "ann_smith-2", "J.R.R.Tolkien", "abc"})
    CHECK_MESSAGE(!check_name(good), good);
  for (const char* bad : {"An", "", "  Ann", "Ann ", "Ann  Smith", "Ann_-Smith", "J.R.R. Tolkien",
                          "_Ann", "Ann\x01", "Ann\tSmith", "Guest 1a2b", "botty",
                          "aaaaaaaaaaaaaaaaaaaaa", "\xd0\x90nn" /* a Cyrillic A */, "Ann<script>"})
    CHECK_MESSAGE(check_name(bad).has_value(), bad);
  CHECK(check_name(std::string(10'000, 'a'))->code == "bad_name");
  CHECK(name_key("Ann Smith") == name_key("ANN_SMITH"));
  CHECK(name_key("Ann Smith") == name_key("ann.sm1th"));
  CHECK(name_key("Ann Smith") == name_key("AnnSmlth"));
  CHECK(name_key("B0b5") == name_key("boBS"));
  CHECK(name_key("Ann Smith") != name_key("Ann Smyth"));
}

TEST_CASE("passwords: weak, long, and the name refused; argon2id round trip") {
  CHECK(check_password("short", "")->code == "weak_password");
  CHECK(check_password("Password123", "")->code == "weak_password");  // common, any case
  CHECK(check_password("Ann_Smith", "ann smith")->code == "weak_password");
  CHECK(check_password("aaaaaaaaaa", "")->code == "weak_password");
  CHECK(check_password(std::string(129, 'x') + "y", "")->code == "password_too_long");
  CHECK_FALSE(check_password("tiles and meeples", "Ann"));

  const password_cost cheap{1, 8u << 10};  // the test's cost: the checks, not the hardness
  const auto hash = hash_password("tiles and meeples", cheap);
  REQUIRE(hash);
  CHECK(hash->starts_with("$argon2id$v=19$m=8,t=1,p=1$"));
  CHECK(password_matches("tiles and meeples", *hash));
  CHECK_FALSE(password_matches("tiles and meeple", *hash));
  CHECK_FALSE(password_matches("tiles and meeples", ""));
  CHECK(*hash_password("tiles and meeples", cheap) != *hash);  // a fresh salt each time
  CHECK(password_needs_rehash(*hash));  // made cheaper than the server's setting
  CHECK_FALSE(password_needs_rehash(*hash, cheap));
}

TEST_CASE("attempt limits: per address and per name, given back with time") {
  using namespace std::chrono;
  attempt_limits limits({3, seconds(10)}, {2, seconds(60)});
  attempt_limits::clock::time_point t{};
  CHECK(limits.wait("1.2.3.4", "ann", t) == 0);
  limits.failed("1.2.3.4", "ann", t);
  CHECK(limits.wait("1.2.3.4", "ann", t) == 0);
  limits.failed("1.2.3.4", "ann", t);
  // The name's budget (2) is spent, from any address; another name from this address may try.
  CHECK(limits.wait("5.6.7.8", "ann", t) == 60);
  CHECK(limits.wait("1.2.3.4", "bob", t) == 0);
  limits.failed("1.2.3.4", "bob", t);
  CHECK(limits.wait("1.2.3.4", "carl", t) == 10);  // the address's budget (3) is spent
  CHECK(limits.wait("1.2.3.4", "carl", t + seconds(10)) == 0);
  CHECK(limits.wait("5.6.7.8", "ann", t + seconds(30)) == 30);
  CHECK(limits.wait("5.6.7.8", "ann", t + seconds(60)) == 0);
}

TEST_CASE("attempt limits: a full table forgets, it never grows") {
  attempt_limits limits({1, std::chrono::seconds(10)}, {1, std::chrono::seconds(10)}, 4);
  attempt_limits::clock::time_point t{};
  for (int i = 0; i < 100; ++i) limits.failed("a" + std::to_string(i), "n" + std::to_string(i), t);
  CHECK(limits.wait("a99", "n99", t) == 10);  // the last one is remembered
}
