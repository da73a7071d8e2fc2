#include "players/password_hash.hpp"

#include <sodium.h>

#include <cstdlib>

namespace carcassonne::server {

namespace {

void init_sodium() {
  // sodium_init is thread-safe and idempotent; -1 means no usable random source.
  static const bool ready = sodium_init() >= 0;
  if (!ready) std::abort();  // no unpredictable salts: a server must not store passwords
}

}  // namespace

std::optional<std::string> hash_password(std::string_view password, password_cost cost) {
  init_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.passes, cost.memory_bytes,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    return std::nullopt;
  return std::string(out);
}

bool password_matches(std::string_view password, const std::string& encoded) {
  init_sodium();
  if (encoded.empty() || encoded.size() >= crypto_pwhash_STRBYTES) return false;
  return crypto_pwhash_str_verify(encoded.c_str(), password.data(), password.size()) == 0;
}

bool password_needs_rehash(const std::string& encoded, password_cost cost) {
  init_sodium();
  return crypto_pwhash_str_needs_rehash(encoded.c_str(), cost.passes, cost.memory_bytes) != 0;
}

}  // namespace carcassonne::server
