#include "notify/channel_support.hpp"

#include <algorithm>
#include <cctype>

#include "outgoing/addresses.hpp"
#include "outgoing/url.hpp"

namespace carcassonne::server::notify {

outgoing::http_limits http_limits_for(const outgoing_policy& policy) {
  outgoing::http_limits limits;
  limits.timeout = policy.timeout;
  limits.max_body = 64 * 1024;
  limits.extra_ca_pem = policy.extra_ca_pem;
  limits.where = policy.allow_private ? outgoing::reach::any : outgoing::reach::public_only;
  limits.plain_http = policy.allow_plain_http;
  return limits;
}

delivery outcome_of_status(int status, const std::string& what) {
  using outcome = delivery::outcome;
  const std::string why = what + " answered HTTP " + std::to_string(status);
  if (status >= 200 && status < 300) return {outcome::delivered, status, ""};
  if (status == 408 || status == 429 || status >= 500) return {outcome::retry, status, why};
  if (status >= 400 && status < 500) return {outcome::gone, status, why};
  return {outcome::retry, status, why + " (not followed)"};
}

delivery outcome_of_failure(const outgoing::failure& f) {
  const bool refused = f.what == outgoing::failure::kind::refused;
  return {refused ? delivery::outcome::gone : delivery::outcome::retry, 0, f.message};
}

bool url_acceptable(const std::string& url, const outgoing_policy& policy, std::string& why) {
  const auto u = outgoing::parse_url(url, why);
  if (!u) return false;
  if (!u->tls && !policy.allow_plain_http) return why = "https:// only: " + url, false;
  if (url.size() > 2048) return why = "a URL longer than 2048 characters", false;
  if (policy.allow_private) return true;
  std::string host = u->host;
  std::transform(host.begin(), host.end(), host.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  while (!host.empty() && host.back() == '.') host.pop_back();
  // RFC 6761: "localhost" and its subdomains are this machine whatever a resolver says.
  if (host == "localhost" || (host.size() > 10 && host.ends_with(".localhost")))
    return why = "a private address: " + u->host + " is this machine", false;
  // A numeric last label is an address in a form inet_aton reads ("0x7f.1", "2130706433"),
  // never a public name.
  const std::string last = host.substr(host.rfind('.') + 1);
  boost::system::error_code not_address;
  const auto address = boost::asio::ip::make_address(u->host, not_address);
  if (!not_address) {
    const std::string kind = outgoing::refused_address(address);
    if (!kind.empty()) return why = "a private address: " + u->host + " is " + kind, false;
  } else if (!last.empty() && (std::isdigit(static_cast<unsigned char>(last[0])) != 0) &&
             std::all_of(last.begin(), last.end(),
                         [](unsigned char c) { return std::isxdigit(c) != 0 || c == 'x'; })) {
    return why = "not a host name: " + u->host, false;
  }
  return true;
}

}  // namespace carcassonne::server::notify
