// The provider's endpoints fetched through the outgoing HTTP client (outgoing/http_client.hpp):
// https:// with the peer's certificate checked against the system's trust store and the host's
// name, http:// only to this machine (loopback); one request per connection, a deadline for the
// whole exchange and a bound on the answer. Blocks the calling thread: a worker's, never an I/O
// thread's. Thread-safe.
#pragma once
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "oidc/oidc_client.hpp"
#include "outgoing/http_client.hpp"

namespace carcassonne::server::oidc {

struct http_request {
  std::string method = "GET";  // GET or POST
  std::string url;
  std::string content_type, body;
  std::string authorization;  // the Authorization header, when not empty
};

using http_response = outgoing::http_response;  // a status and a body

struct http_limits {
  std::chrono::milliseconds timeout{5000};  // from the name lookup to the answer's last byte
  std::size_t max_body = 1024 * 1024;
  std::string extra_ca_pem;  // certificates trusted besides the system's (PEM), e.g. a private CA
};

// The answer, whatever its status. Nothing, with `e`, when there is none: provider_unreachable
// (no connection, TLS refused, no answer before the deadline), bad_provider (the answer is not
// HTTP or is larger than the limit), bad_settings (a URL this client does not fetch).
std::optional<http_response> http_fetch(const http_request& request, error& e,
                                        const http_limits& limits = {});

// Whether this client fetches `url`: https://host[:port][/path], or http:// to localhost or a
// loopback address; no user information, no spaces or control characters. `why` when not.
bool url_allowed(const std::string& url, std::string& why);

}  // namespace carcassonne::server::oidc
