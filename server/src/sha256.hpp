// SHA-256 (FIPS 180-4), for storing seat tokens hashed: the database never holds a token that
// would let whoever reads it take a seat.
#pragma once
#include <string>
#include <string_view>

namespace carcassonne::server {

// The digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace carcassonne::server
