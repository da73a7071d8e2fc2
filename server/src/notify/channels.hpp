// The three ways a notification leaves the server (docs/hosting.md "Notifications"): Web Push
// (RFC 8030 delivery, RFC 8291 message encryption, RFC 8292 VAPID), webhooks (an HTTPS POST signed
// with HMAC-SHA256) and e-mail over SMTP. Plain blocking functions, for the notification worker's
// thread, never an I/O thread; each one bounded by a deadline. Every outgoing connection goes only
// to a public address unless the host allows private ones (server-side request forgery): the
// name is resolved once and the connection made to the checked address. Thread-safe.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace carcassonne::server::notify {

// Where outgoing requests may go and how long they may take.
struct outgoing_policy {
  bool allow_private = false;  // --notify-allow-private: loopback, RFC 1918, link-local, ULA...
  std::chrono::milliseconds timeout{5000};  // from the name lookup to the answer's last byte
  std::string extra_ca_pem;       // certificates trusted besides the system's (tests: their own CA)
  bool allow_plain_http = false;  // http:// (not https://) endpoints: tests only
};

// What became of one delivery attempt.
struct delivery {
  enum class outcome {
    delivered,  // 2xx (SMTP: 250 after DATA)
    retry,      // worth trying again later: no answer, timeout, 5xx, 429
    gone,       // never again: push 404/410 (the subscription is dead), a refused address or URL
  } result = outcome::retry;
  int status = 0;     // the HTTP status or SMTP reply code, 0 when none
  std::string error;  // why, for logs and the dead letters (never a secret)
};

// Whether `url` may be a push endpoint or webhook: https:// (http:// only with
// allow_plain_http), no user information, and (unless allow_private) a host that is not this
// server nor a private, loopback, link-local or unspecified address literal. Names are checked
// again after resolution at send time. `why` when not; it begins with "a private address" when
// the host is the reason (the API's `private_address`, else `bad_url`).
bool url_acceptable(const std::string& url, const outgoing_policy& policy, std::string& why);

// ---- Web Push ----

// A browser's PushSubscription (its JSON: endpoint, keys.p256dh, keys.auth; keys base64url).
struct push_subscription {
  std::string endpoint, p256dh, auth;
};

// The server's VAPID key pair (P-256), kept in the data directory so that subscriptions outlive
// restarts; `public_key` is the uncompressed point, base64url, as applicationServerKey.
struct vapid_keys {
  std::string private_pem;
  std::string public_key;
};
// A new key pair from OpenSSL's generator.
vapid_keys generate_vapid_keys();
// The key pair in `path` (PEM of the private key), created when missing; nothing with `error`
// when it cannot be read or written.
std::optional<vapid_keys> load_or_create_vapid_keys(const std::string& path, std::string& error);

// The RFC 8291 body (aes128gcm content coding, RFC 8188: one record) of `plaintext` for
// `subscription`, with a fresh ephemeral key and salt; nothing with `error` when the
// subscription's keys are malformed. Exposed for tests, which decrypt it.
std::optional<std::string> encrypt_push(const push_subscription& subscription,
                                        const std::string& plaintext, std::string& error);
// The Authorization header of RFC 8292 ("vapid t=<JWT ES256>, k=<public key>") for `endpoint`'s
// origin, valid 12 hours from `now_s` (Unix seconds); `subject` a mailto: or https: URL.
std::string vapid_authorization(const std::string& endpoint, const vapid_keys& keys,
                                const std::string& subject, long long now_s);
// POSTs `plaintext` encrypted to the subscription (TTL, Urgency and Topic headers as given;
// topic: messages with the same topic replace each other while undelivered).
struct push_message {
  std::string plaintext;  // JSON the service worker reads
  int ttl_s = 86400;
  std::string urgency = "normal";
  std::string topic;  // [A-Za-z0-9_-]{0,32}
};
delivery send_web_push(const push_subscription& subscription, const push_message& message,
                       const vapid_keys& keys, const std::string& subject,
                       const outgoing_policy& policy);

// ---- Webhooks ----

// POSTs `json_body` to `url` with the headers X-Carcassonne-Event, X-Carcassonne-Delivery (the
// idempotency key: receivers drop repeats), X-Carcassonne-Timestamp (Unix seconds) and
// X-Carcassonne-Signature: "sha256=" + hex(HMAC-SHA256(secret, timestamp + "." + body)).
struct webhook_message {
  std::string event, delivery_id, json_body;
  long long timestamp_s = 0;
};
std::string webhook_signature(const std::string& secret, long long timestamp_s,
                              const std::string& body);
delivery send_webhook(const std::string& url, const std::string& secret,
                      const webhook_message& message, const outgoing_policy& policy);

// ---- E-mail ----

// The host's SMTP relay (--smtp smtp://[user:password@]host[:port], STARTTLS when the relay
// offers it; smtps:// for implicit TLS) and the sender.
struct smtp_settings {
  std::string url;
  std::string from;  // "Carcassonne <games@example.org>"
};
struct mail {
  std::string to, subject, text;  // text/plain, UTF-8
  std::string message_id;         // the idempotency key, as Message-ID
  std::string unsubscribe_url;    // List-Unsubscribe (+ List-Unsubscribe-Post, RFC 8058)
};
// The SMTP relay is the host's own: private addresses are allowed for it.
delivery send_mail(const smtp_settings& settings, const mail& m, const outgoing_policy& policy);

}  // namespace carcassonne::server::notify
