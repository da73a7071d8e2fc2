// A small blocking HTTP/1.1 client (Boost.Beast) for requests the server makes on its own: to an
// identity provider, a push service, a webhook. https:// with the peer's certificate checked,
// http:// only when the caller allows it; the addresses it may reach chosen by the caller (see
// connection.hpp: one lookup, the checked address connected); one request per connection, no
// redirect followed (a 3xx is an answer like any other), a deadline for the whole exchange and a
// bound on the answer. Blocks the calling thread: a worker's, never an I/O thread's. Thread-safe.
#pragma once
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "outgoing/connection.hpp"

namespace carcassonne::server::outgoing {

struct http_request {
  std::string method = "GET";  // GET or POST
  std::string url;
  // Added to Host, User-Agent, Connection and Content-Length (which the client writes).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct http_response {
  int status = 0;
  std::string body;
};

struct http_limits {
  std::chrono::milliseconds timeout{5000};  // from the name lookup to the answer's last byte
  std::size_t max_body = 1024 * 1024;
  std::string extra_ca_pem;  // certificates trusted besides the system's (PEM), e.g. a private CA
  reach where = reach::public_only;
  bool plain_http = false;  // http:// URLs (else only https://)
};

// The answer, whatever its status; nothing, with `f`, when there is none (refused: the URL or
// the address; unreachable; too_large).
std::optional<http_response> fetch(const http_request& request, const http_limits& limits,
                                   failure& f);

}  // namespace carcassonne::server::outgoing
