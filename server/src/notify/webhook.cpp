// A webhook's delivery: one signed POST of the event's JSON.
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <ctime>

#include "base/crypto.hpp"
#include "notify/channel_support.hpp"
#include "notify/channels.hpp"

namespace carcassonne::server::notify {

std::string webhook_signature(const std::string& secret, long long timestamp_s,
                              const std::string& body) {
  // The timestamp is signed with the body, so that an old delivery cannot be replayed as new.
  const std::string input = std::to_string(timestamp_s) + "." + body;
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  EVP_MAC_CTX* ctx = mac ? EVP_MAC_CTX_new(mac) : nullptr;
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                               OSSL_PARAM_construct_end()};
  bytes out(32);
  std::size_t length = 0;
  const bool ok = ctx &&
                  EVP_MAC_init(ctx, reinterpret_cast<const unsigned char*>(secret.data()),
                               secret.size(), params) == 1 &&
                  EVP_MAC_update(ctx, reinterpret_cast<const unsigned char*>(input.data()),
                                 input.size()) == 1 &&
                  EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1 && length == 32;
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  return ok ? "sha256=" + to_hex(out) : std::string();
}

delivery send_webhook(const std::string& url, const std::string& secret,
                      const webhook_message& message, const outgoing_policy& policy) {
  std::string why;
  if (!url_acceptable(url, policy, why)) return {delivery::outcome::gone, 0, why};
  const long long timestamp = message.timestamp_s != 0 ? message.timestamp_s : std::time(nullptr);
  outgoing::http_request request{"POST", url, {}, message.json_body};
  request.headers = {
      {"Content-Type", "application/json"},
      {"X-Carcassonne-Event", message.event},
      {"X-Carcassonne-Delivery", message.delivery_id},
      {"X-Carcassonne-Timestamp", std::to_string(timestamp)},
      {"X-Carcassonne-Signature", webhook_signature(secret, timestamp, message.json_body)}};
  outgoing::failure f;
  const auto answer = outgoing::fetch(request, http_limits_for(policy), f);
  if (!answer) return outcome_of_failure(f);
  return outcome_of_status(answer->status, "the webhook");
}

}  // namespace carcassonne::server::notify
