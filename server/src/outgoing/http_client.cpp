#include "outgoing/http_client.hpp"

#include <boost/beast/http/field.hpp>

#include "outgoing/url.hpp"

namespace carcassonne::server::outgoing {

namespace {

namespace http = boost::beast::http;

bool header_safe(const std::string& text) {
  for (const char c : text)
    if (c == '\r' || c == '\n' || c == '\0') return false;
  return true;
}

}  // namespace

std::optional<http_response> fetch(const http_request& request, const http_limits& limits,
                                   failure& f) {
  std::string why;
  const auto u = parse_url(request.url, why);
  if (!u) return f = {failure::kind::refused, why}, std::nullopt;
  if (!u->tls && !limits.plain_http)
    return f = {failure::kind::refused, "http:// refused, https:// only: " + request.url},
           std::nullopt;
  for (const auto& [name, value] : request.headers)
    if (name.empty() || !header_safe(name) || !header_safe(value))
      return f = {failure::kind::refused, "a header with a line break: " + name}, std::nullopt;

  connection c(limits.timeout, limits.extra_ca_pem);
  if (auto failed = c.open(u->host, u->port, limits.where)) return f = *failed, std::nullopt;
  if (u->tls)
    if (auto failed = c.start_tls(u->host)) return f = *failed, std::nullopt;

  http::request<http::string_body> req{
      request.method == "POST" ? http::verb::post : http::verb::get, u->target, 11};
  req.set(http::field::host, u->host_header());
  req.set(http::field::user_agent, "carcassonne-server");
  req.set(http::field::connection, "close");
  for (const auto& [name, value] : request.headers) req.set(name, value);
  req.body() = request.body;
  req.prepare_payload();
  http::response<http::string_body> answer;
  if (auto failed = c.http(req, limits.max_body, answer)) return f = *failed, std::nullopt;
  return http_response{static_cast<int>(answer.result_int()), std::move(answer.body())};
}

}  // namespace carcassonne::server::outgoing
