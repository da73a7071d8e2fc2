#include "outgoing/url.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace carcassonne::server::outgoing {

std::string url::host_header() const {
  const bool v6 = host.find(':') != std::string::npos;
  const bool default_port = port == (tls ? "443" : "80");
  return (v6 ? "[" + host + "]" : host) + (default_port ? "" : ":" + port);
}

std::string url::origin() const {
  std::string lower = host_header();
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return (tls ? "https://" : "http://") + lower;
}

std::optional<authority> parse_authority(const std::string& text, const std::string& default_port,
                                         std::string& why) {
  authority a{{}, default_port};
  std::size_t colon = text.rfind(':');
  if (!text.empty() && text.front() == '[') {  // an IPv6 literal
    const std::size_t close = text.find(']');
    if (close == std::string::npos) return why = "a bad IPv6 address", std::nullopt;
    a.host = text.substr(1, close - 1);
    colon = text.size() > close + 1 ? close + 1 : std::string::npos;
    if (colon != std::string::npos && text[colon] != ':') return why = "a bad host", std::nullopt;
  } else {
    a.host = text.substr(0, colon);
  }
  if (colon != std::string::npos) {
    a.port = text.substr(colon + 1);
    const bool digits = !a.port.empty() && a.port.size() <= 5 &&
                        std::all_of(a.port.begin(), a.port.end(), ::isdigit);
    if (!digits || std::stoi(a.port) < 1 || std::stoi(a.port) > 65535)
      return why = "a bad port", std::nullopt;
  }
  if (a.host.empty()) return why = "no host", std::nullopt;
  return a;
}

std::optional<url> parse_url(const std::string& text, std::string& why) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return why = "a URL with a space or a control character", std::nullopt;
  url t;
  std::size_t at = 0;
  if (text.rfind("https://", 0) == 0) {
    t.tls = true, t.port = "443", at = 8;
  } else if (text.rfind("http://", 0) == 0) {
    t.port = "80", at = 7;
  } else {
    return why = "not an http(s) URL: " + text, std::nullopt;
  }
  const std::size_t end = std::min(text.find_first_of("/?#", at), text.size());
  const std::string authority = text.substr(at, end - at);
  if (authority.find('@') != std::string::npos)
    return why = "a URL with user information", std::nullopt;
  auto hp = parse_authority(authority, t.port, why);
  if (!hp) return why += " in " + text, std::nullopt;
  t.host = std::move(hp->host);
  t.port = std::move(hp->port);
  t.target = text.substr(end, text.find('#', end) - end);
  if (t.target.empty() || t.target.front() != '/') t.target = "/" + t.target;
  return t;
}

}  // namespace carcassonne::server::outgoing
