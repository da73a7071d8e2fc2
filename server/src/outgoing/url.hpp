// The parts of an http:// or https:// URL that an outgoing request needs, checked for what a URL
// given by a user or a provider must not hold: spaces or control characters (header injection),
// user information, a port out of range. Plain functions; thread-safe. The SMTP relay's URL
// (notify/smtp.cpp) shares the host and port's reading.
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

// A URL's host and port: host[:port] or [IPv6][:port], without user information. Nothing, with
// `why`, when the host is empty or the port is not 1..65535; `default_port` when none is given.
struct authority {
  std::string host;  // without an IPv6 literal's brackets
  std::string port;
};
std::optional<authority> parse_authority(const std::string& text, const std::string& default_port,
                                         std::string& why);

// `text` taken apart; nothing, with `why`, when it is not a URL this client fetches.
std::optional<url> parse_url(const std::string& text, std::string& why);

}  // namespace carcassonne::server::outgoing
