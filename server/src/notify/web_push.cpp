// A Web Push message's delivery (RFC 8030 §5): one POST of the encrypted body to the
// subscription's endpoint, authorized with VAPID.
#include <algorithm>
#include <cctype>
#include <ctime>

#include "notify/channel_support.hpp"
#include "notify/channels.hpp"

namespace carcassonne::server::notify {

namespace {

// RFC 8030 §5.4: a topic is at most 32 characters of the base64url alphabet; a caller's
// malformed topic is left out rather than failing the message.
bool topic_valid(const std::string& topic) {
  return topic.size() <= 32 && std::all_of(topic.begin(), topic.end(), [](unsigned char c) {
           return std::isalnum(c) != 0 || c == '-' || c == '_';
         });
}

std::string urgency_of(const std::string& urgency) {  // RFC 8030 §5.3
  return urgency == "very-low" || urgency == "low" || urgency == "high" ? urgency : "normal";
}

}  // namespace

delivery send_web_push(const push_subscription& subscription, const push_message& message,
                       const vapid_keys& keys, const std::string& subject,
                       const outgoing_policy& policy) {
  using outcome = delivery::outcome;
  std::string why;
  if (!url_acceptable(subscription.endpoint, policy, why)) return {outcome::gone, 0, why};
  const auto body = encrypt_push(subscription, message.plaintext, why);
  if (!body) return {outcome::gone, 0, why};
  const std::string authorization =
      vapid_authorization(subscription.endpoint, keys, subject, std::time(nullptr));
  if (authorization.empty()) return {outcome::retry, 0, "no VAPID signature (the server's key)"};

  outgoing::http_request request{"POST", subscription.endpoint, {}, *body};
  request.headers = {{"Content-Type", "application/octet-stream"},
                     {"Content-Encoding", "aes128gcm"},
                     {"TTL", std::to_string(std::max(0, message.ttl_s))},
                     {"Urgency", urgency_of(message.urgency)},
                     {"Authorization", authorization}};
  if (!message.topic.empty() && topic_valid(message.topic))
    request.headers.emplace_back("Topic", message.topic);
  outgoing::failure f;
  const auto answer = outgoing::fetch(request, http_limits_for(policy), f);
  if (!answer) return outcome_of_failure(f);
  return outcome_of_status(answer->status, "the push service");
}

}  // namespace carcassonne::server::notify
