#include "notify/real_senders.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>

#include "notify/channels.hpp"

namespace carcassonne::server::notify {

std::optional<real_channels> make_real_channels(const config& c, std::string& error) {
  // The data directory may be missing (a PostgreSQL store keeps nothing else there).
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(c.vapid_path()).parent_path(), ec);
  auto keys = load_or_create_vapid_keys(c.vapid_path(), error);
  if (!keys) {
    // Without its key pair the server offers no Web Push; webhooks and mail work.
    spdlog::warn("notifications: no Web Push: {}", error);
    error.clear();
  }
  outgoing_policy policy;
  policy.allow_private = c.notify_allow_private;
  // Plain http:// only where private addresses are allowed too: a test's own receiver.
  policy.allow_plain_http = c.notify_allow_private;
  const auto shared_keys = keys ? std::make_shared<const vapid_keys>(std::move(*keys)) : nullptr;
  const std::string subject =
      c.push_subject.empty() ? std::string("mailto:admin@localhost") : c.push_subject;
  real_channels out;
  if (shared_keys) out.vapid_public_key = shared_keys->public_key;
  out.url_check = [policy](const std::string& url, std::string& why) {
    return url_acceptable(url, policy, why);
  };
  if (shared_keys)
    out.send.push = [policy, shared_keys, subject](const push_subscription& s,
                                                   const push_message& m) {
      return send_web_push(s, m, *shared_keys, subject, policy);
    };
  out.send.webhook = [policy](const std::string& url, const std::string& secret,
                              const webhook_message& m) {
    return send_webhook(url, secret, m, policy);
  };
  if (!c.smtp_url.empty()) {
    out.email_available = true;
    const smtp_settings smtp{c.smtp_url,
                             c.smtp_from.empty() ? "Carcassonne <games@localhost>" : c.smtp_from};
    out.send.email = [policy, smtp](const mail& m) { return send_mail(smtp, m, policy); };
  }
  return out;
}

}  // namespace carcassonne::server::notify
