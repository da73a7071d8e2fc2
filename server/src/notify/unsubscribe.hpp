// One-click unsubscribe links (docs/protocol.md §23, RFC 8058 for mail): a token names the
// player, the channel, the event kind and (push) the subscription, with an HMAC-SHA256 tag under
// the server's secret, so that the link works without a session and cannot be forged for
// another player. Tokens do not expire: an old mail's link still unsubscribes.
#pragma once
#include <optional>
#include <string>

namespace carcassonne::server::notify {

struct unsubscribe_target {
  std::string player, channel, kind, subscription;
};

std::string unsubscribe_token(const std::string& secret, const unsubscribe_target& t);
// The target of a token whose tag checks out under `secret`; nothing otherwise.
std::optional<unsubscribe_target> read_unsubscribe_token(const std::string& secret,
                                                         const std::string& token);

}  // namespace carcassonne::server::notify
