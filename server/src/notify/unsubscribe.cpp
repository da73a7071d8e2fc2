#include "notify/unsubscribe.hpp"

#include <vector>

#include "base/crypto.hpp"

namespace carcassonne::server::notify {

namespace {

// The fields are ids and fixed words ([a-z0-9_-]): '.' separates them.
bool plain(const std::string& s) {
  return s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
}

std::string tag(const std::string& secret, const std::string& payload) {
  return to_hex(hmac_sha256(secret, "unsubscribe\n" + payload)).substr(0, 40);
}

}  // namespace

std::string unsubscribe_token(const std::string& secret, const unsubscribe_target& t) {
  const auto payload = t.player + '.' + t.channel + '.' + t.kind + '.' + t.subscription;
  return payload + '.' + tag(secret, payload);
}

std::optional<unsubscribe_target> read_unsubscribe_token(const std::string& secret,
                                                         const std::string& token) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t dot; (dot = token.find('.', start)) != std::string::npos; start = dot + 1)
    parts.push_back(token.substr(start, dot - start));
  parts.push_back(token.substr(start));
  if (parts.size() != 5) return std::nullopt;
  for (const auto& p : parts)
    if (!plain(p)) return std::nullopt;
  const auto payload = token.substr(0, token.rfind('.'));
  if (parts[0].empty() || !equal_constant_time(tag(secret, payload), parts[4])) return std::nullopt;
  return unsubscribe_target{parts[0], parts[1], parts[2], parts[3]};
}

}  // namespace carcassonne::server::notify
