// docs/randomness.md: the generator's test vectors, so another implementation can check itself.
#include <doctest/doctest.h>

#include <vector>

#include "carcassonne/engine/rng.hpp"

using namespace carcassonne;

TEST_CASE("FNV-1a-64 seed hash vectors") {
  CHECK(hash_seed("") == 0xcbf29ce484222325ULL);
  CHECK(hash_seed("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(hash_seed("2026-11-29/room-17") == 0x9b50d01305b34b8fULL);
}

TEST_CASE("xoshiro256** seeded by splitmix64: first outputs") {
  rng zero(0);
  CHECK(zero.next() == 0x99ec5f36cb75f2b4ULL);
  CHECK(zero.next() == 0xbf6e1f784956452aULL);
  CHECK(zero.next() == 0x1a5f849d4933e6e0ULL);

  auto room = rng::from_string("2026-11-29/room-17");
  CHECK(room.next() == 625112441589227333ULL);
  CHECK(room.next() == 16778808760862227040ULL);
  CHECK(room.next() == 971482556911885036ULL);
}

TEST_CASE("bounded draws and Fisher-Yates vectors") {
  auto r = rng::from_string("1");
  std::vector<std::uint64_t> draws;
  for (int i = 0; i < 5; ++i) draws.push_back(r.below(6));
  CHECK(draws == std::vector<std::uint64_t>{0, 3, 1, 4, 2});

  auto s = rng::from_string("shuffle");
  std::vector<int> v{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  s.shuffle(std::span<int>(v));
  CHECK(v == std::vector<int>{8, 9, 3, 2, 1, 5, 6, 4, 0, 7});
}

TEST_CASE("bounded draws stay in range and cover it evenly") {
  auto r = rng::from_string("even");
  std::vector<int> counts(3, 0);
  for (int i = 0; i < 30000; ++i) {
    const auto x = r.below(3);
    REQUIRE(x < 3);
    ++counts[x];
  }
  for (int c : counts) CHECK(c > 9500);  // 10000 expected; 5 sigma is about 410
  CHECK(r.below(1) == 0);
}

TEST_CASE("the generator is a value: copies replay the same sequence") {
  auto a = rng::from_string("copy");
  a.next();
  auto b = a;
  for (int i = 0; i < 10; ++i) CHECK(a.next() == b.next());
  CHECK(a == b);
}
