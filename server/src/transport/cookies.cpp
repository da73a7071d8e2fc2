#include "transport/cookies.hpp"

namespace carcassonne::server {

namespace http = boost::beast::http;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool over_https(const http_request& req) {
  const auto proto = req["X-Forwarded-Proto"];
  return std::string_view(proto.data(), proto.size()) == "https";
}

}  // namespace

std::optional<std::string> cookie_value(const http_request& req, std::string_view name) {
  const auto [first, last] = req.equal_range(http::field::cookie);
  for (auto it = first; it != last; ++it) {
    std::string_view rest(it->value().data(), it->value().size());
    while (!rest.empty()) {
      const auto semi = rest.find(';');
      const auto pair = trim(rest.substr(0, semi));
      rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
      const auto eq = pair.find('=');
      if (eq != std::string_view::npos && trim(pair.substr(0, eq)) == name)
        return std::string(trim(pair.substr(eq + 1)));
    }
  }
  return std::nullopt;
}

std::optional<std::string> request_session(const http_request& req, bool& from_cookie) {
  from_cookie = false;
  const auto auth = req[http::field::authorization];
  const std::string_view a(auth.data(), auth.size());
  if (a.starts_with("Bearer ")) return std::string(trim(a.substr(7)));
  auto c = cookie_value(req, session_cookie_name);
  from_cookie = c.has_value();
  return c;
}

bool origin_allowed(const http_request& req, const config& cfg) {
  const auto o = req[http::field::origin];
  const std::string_view origin(o.data(), o.size());
  if (origin.empty()) return true;
  const auto h = req[http::field::host];
  const std::string host(h.data(), h.size());
  if (!host.empty() && (origin == "http://" + host || origin == "https://" + host)) return true;
  std::string_view list = cfg.allowed_origins;
  while (!list.empty()) {
    const auto comma = list.find(',');
    if (trim(list.substr(0, comma)) == origin) return true;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return false;
}

std::string session_cookie(const http_request& req, const std::string& token,
                           long long max_age_seconds) {
  std::string c(session_cookie_name);
  c += '=' + token +
       "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(max_age_seconds);
  if (over_https(req)) c += "; Secure";
  return c;
}

}  // namespace carcassonne::server
