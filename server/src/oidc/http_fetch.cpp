#include "oidc/http_fetch.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <cctype>

#include "outgoing/http_client.hpp"
#include "outgoing/url.hpp"

namespace carcassonne::server::oidc {

namespace {

bool is_loopback_host(const std::string& host) {
  std::string lower = host;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "localhost") return true;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(host, ec);
  return !ec && address.is_loopback();
}

std::optional<outgoing::url> provider_url(const std::string& url, std::string& why) {
  auto u = outgoing::parse_url(url, why);
  if (u && !u->tls && !is_loopback_host(u->host))
    return why = "http:// only to this machine (loopback); use https:// for " + url, std::nullopt;
  return u;
}

}  // namespace

bool url_allowed(const std::string& url, std::string& why) {
  return provider_url(url, why).has_value();
}

std::optional<http_response> http_fetch(const http_request& request, error& e,
                                        const http_limits& limits) {
  std::string why;
  const auto u = provider_url(request.url, why);
  if (!u) return e = {"bad_settings", why}, std::nullopt;
  outgoing::http_request out{
      request.method, request.url, {{"Accept", "application/json"}}, request.body};
  if (!request.content_type.empty()) out.headers.emplace_back("Content-Type", request.content_type);
  if (!request.authorization.empty())
    out.headers.emplace_back("Authorization", request.authorization);
  // The provider is the host's own choice: any address over https://; http:// never leaves the
  // machine, whatever the name says.
  outgoing::http_limits bounds{limits.timeout, limits.max_body, limits.extra_ca_pem,
                               u->tls ? outgoing::reach::any : outgoing::reach::loopback_only,
                               true};
  outgoing::failure f;
  auto answer = outgoing::fetch(out, bounds, f);
  if (answer) return answer;
  using kind = outgoing::failure::kind;
  if (f.what == kind::bad_settings)
    e = {"bad_settings", f.message};
  else if (f.what == kind::too_large || f.what == kind::bad_answer)
    e = {"bad_provider", request.url + ": " + f.message};
  else
    e = {"provider_unreachable", request.url + ": " + f.message};
  return std::nullopt;
}

}  // namespace carcassonne::server::oidc
