// A player's session on HTTP and WebSocket requests (docs/protocol.md "Accounts"): the
// `carcassonne_session` cookie the page holds (HttpOnly, SameSite=Strict), or an
// `Authorization: Bearer` token any client may send; and the Origin check that keeps another
// site's page from acting with the cookie.
#pragma once
#include <boost/beast/http.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "base/config.hpp"

namespace carcassonne::server {

using http_request = boost::beast::http::request<boost::beast::http::string_body>;

inline constexpr std::string_view session_cookie_name = "carcassonne_session";

// The value of cookie `name` in the request's Cookie header(s), if any.
std::optional<std::string> cookie_value(const http_request& req, std::string_view name);
// The session token of the request: its Bearer token, else its session cookie.
std::optional<std::string> request_session(const http_request& req, bool& from_cookie);

// True when the request's Origin (if it has one) is this server's own — the scheme and the
// request's Host — or one of config::allowed_origins. A request without Origin is not a
// browser's cross-site request (browsers send it on WebSocket upgrades and POSTs).
bool origin_allowed(const http_request& req, const config& cfg);

// The Set-Cookie value that gives the page its session (Secure when the request came over
// HTTPS, as a proxy says with X-Forwarded-Proto), or clears it (max_age 0).
std::string session_cookie(const http_request& req, const std::string& token,
                           long long max_age_seconds);

}  // namespace carcassonne::server
