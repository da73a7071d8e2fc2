// The one place that talks to OpenSSL's libcrypto: unpredictable bytes (RAND_bytes, a CSPRNG),
// SHA-256 (EVP) and a constant-time comparison. Thread-safe; plain functions.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carcassonne::server {

using bytes = std::vector<unsigned char>;

// `n` bytes from OpenSSL's CSPRNG. Aborts when the generator cannot be seeded: a server that
// would hand out guessable tokens must not run.
bytes random_bytes(std::size_t n);
// `hex_digits` random lowercase hexadecimal characters (room ids, seat tokens, secrets).
std::string random_hex(int hex_digits);

// SHA-256 (FIPS 180-4) through EVP: the 32-byte digest, and as 64 lowercase hex digits.
bytes sha256(std::string_view data);
std::string sha256_hex(std::string_view data);

// HMAC-SHA256 (RFC 2104) of `data` under `key`: the 32-byte tag.
bytes hmac_sha256(std::string_view key, std::string_view data);

std::string to_hex(const bytes& b);
// Lowercase or uppercase hex, an even number of digits; nothing otherwise.
std::optional<bytes> from_hex(std::string_view hex);

// Equal contents, compared in time that does not depend on where they differ (CRYPTO_memcmp);
// different lengths are unequal.
bool equal_constant_time(std::string_view a, std::string_view b);

}  // namespace carcassonne::server
