// Passwords at rest: argon2id through libsodium (crypto_pwhash_str), never the password itself.
// Each hash costs tens of milliseconds of one core and `memory_bytes` of memory on purpose: call
// these on the accounts' worker threads (accounts.hpp), never on an I/O thread.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server {

// OWASP's argon2id setting (19 MiB, 2 passes, 1 lane): a guess costs an attacker holding the
// database as much as a sign-in costs the server (docs/hosting.md "Accounts" measures it).
struct password_cost {
  unsigned long long passes = 2;
  std::size_t memory_bytes = 19u << 20;
};

// The encoded hash ("$argon2id$v=19$m=19456,t=2,p=1$salt$hash", salt from libsodium's generator);
// nothing when libsodium cannot allocate the memory.
std::optional<std::string> hash_password(std::string_view password, password_cost cost = {});
// True when `password` matches `encoded` (constant time in libsodium).
bool password_matches(std::string_view password, const std::string& encoded);
// True when `encoded` was made with a setting other than `cost` (rehash after a good sign-in).
bool password_needs_rehash(const std::string& encoded, password_cost cost = {});

}  // namespace carcassonne::server
