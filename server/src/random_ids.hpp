// Unpredictable identifiers for rooms and seat tokens (not game randomness: that is the engine's).
#pragma once
#include <string>

namespace carcassonne::server {

// `hex_digits` random hexadecimal characters from the operating system's entropy.
std::string random_hex(int hex_digits);

}  // namespace carcassonne::server
