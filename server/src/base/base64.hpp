// Base64 and base64url (RFC 4648), for the JOSE pieces of sign-in and of Web Push and for HTTP
// authentication. Plain functions; thread-safe.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server {

// Base64url without padding (RFC 7515 §2).
std::string base64url_encode(std::string_view bytes);
// Strict: only the base64url alphabet, no padding, no stray bits (one text per byte string, so a
// signature cannot be re-encoded into a second valid token).
std::optional<std::string> base64url_decode(std::string_view text);
// Base64 with padding (RFC 4648 §4), as HTTP Basic authentication and SMTP AUTH want it.
std::string base64_encode(std::string_view bytes);

}  // namespace carcassonne::server
