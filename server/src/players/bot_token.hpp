// An outside bot's API token (docs/protocol.md "Outside bots"): "bot_" and 64 hex digits from
// OpenSSL's CSPRNG. The prefix tells it from a session (64 hex digits) wherever a session is
// taken; the database keeps only its SHA-256.
#pragma once
#include <string>
#include <string_view>

namespace carcassonne::server {

inline constexpr std::string_view bot_token_prefix = "bot_";

inline bool is_bot_token(std::string_view credential) {
  return credential.starts_with(bot_token_prefix);
}

// A fresh token (base/crypto.hpp random_hex).
std::string new_bot_token_text();

}  // namespace carcassonne::server
