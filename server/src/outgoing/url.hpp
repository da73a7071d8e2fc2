// The parts of an http:// or https:// URL that an outgoing request needs, checked for what a URL
// given by a user or a provider must not hold: spaces or control characters (header injection),
// user information, a port out of range. Plain functions; thread-safe.
#pragma once
#include <optional>
#include <string>

namespace carcassonne::server::outgoing {

struct url {
  bool tls = false;
  std::string host;    // without an IPv6 literal's brackets, as written
  std::string port;    // digits; 443 or 80 when the URL names none
  std::string target;  // path and query, starting with '/', without the fragment
  // The Host header's value: brackets around an IPv6 literal, the port when not the default.
  std::string host_header() const;
  // scheme://host[:port], as RFC 6454 writes an origin (the VAPID token's audience).
  std::string origin() const;
};

// `text` taken apart; nothing, with `why`, when it is not a URL this client fetches.
std::optional<url> parse_url(const std::string& text, std::string& why);

}  // namespace carcassonne::server::outgoing
