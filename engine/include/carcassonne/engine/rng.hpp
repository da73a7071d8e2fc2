// The project's own deterministic random generator (docs/randomness.md): xoshiro256** seeded by
// splitmix64 from an FNV-1a-64 hash of the seed string, unbiased bounded draws, Fisher-Yates.
// Identical on every machine and library version; never use <random> distributions for rules.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

namespace carcassonne {

// FNV-1a, 64 bit, over the bytes of s (UTF-8 as given).
std::uint64_t hash_seed(std::string_view s);

class rng {
 public:
  rng() : rng(0) {}
  explicit rng(std::uint64_t seed);
  static rng from_string(std::string_view seed) { return rng(hash_seed(seed)); }

  // Next raw 64-bit output of xoshiro256**.
  std::uint64_t next();
  // Uniform integer in [0, n), n >= 1, by rejection (no modulo bias).
  std::uint64_t below(std::uint64_t n);

  // Fisher-Yates: for i = n-1 down to 1, swap(a[i], a[below(i+1)]).
  template <class T>
  void shuffle(std::span<T> items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  friend bool operator==(const rng&, const rng&) = default;

 private:
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace carcassonne
