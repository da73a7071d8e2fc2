// The worker's senders and the API's URL check made of the real channels (channels.hpp), with
// the host's settings: the outgoing policy (--notify-allow-private), the VAPID key pair in the
// data directory (made at the first start), the SMTP relay (--smtp, --smtp-from) and the push
// subject (--push-subject).
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "base/config.hpp"
#include "notify/worker.hpp"

namespace carcassonne::server::notify {

struct real_channels {
  senders send;
  std::function<bool(const std::string& url, std::string& why)> url_check;
  std::string vapid_public_key;
  bool email_available = false;
};

// The data directory is made when missing; when the VAPID key file cannot be read or made, a
// warning is logged and Web Push is off (no key, no push sender).
std::optional<real_channels> make_real_channels(const config& c, std::string& error);

}  // namespace carcassonne::server::notify
