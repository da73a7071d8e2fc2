// The notifications as the HTTP API sees them (docs/protocol.md §23): a player's settings, push
// subscriptions, "my games" and the one-click unsubscribe, checked and stored through
// notify_store. Plain blocking calls for the accounts' worker pool, never an I/O thread.
// Thread-safe.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "notify/notify_store.hpp"
#include "notify/unsubscribe.hpp"

namespace carcassonne::server::notify {

struct service_settings {
  std::string vapid_public_key;  // "" when Web Push is off
  bool email_available = false;  // --smtp given
  // Whether a push endpoint or webhook may be called (channels.hpp url_acceptable with the host's
  // policy); `why` when not.
  std::function<bool(const std::string& url, std::string& why)> url_check;
  std::function<std::int64_t()> now_ms;  // the wall clock (tests: a fake one)
};

// An answer: a document, or an error code with its HTTP status (400 bad_url, private_address,
// bad_email, bad_request; 404 no_such_subscription, bad_token; 503 storage_failed).
struct answer {
  nlohmann::json doc;
  int status = 200;
  std::string error;  // "" on success
};

class service {
 public:
  service(std::unique_ptr<notify_store> db, service_settings s, std::string secret);
  notify_store& store() { return *db_; }
  const std::string& secret() const { return secret_; }

  answer games(const std::string& player);
  answer settings(const std::string& player);
  answer put_settings(const std::string& player, const nlohmann::json& body);
  answer add_push(const std::string& player, const nlohmann::json& subscription);
  answer remove_push(const std::string& player, const std::string& id);
  answer unsubscribe(const std::string& token);

  std::string token(const std::string& player, const std::string& channel, const std::string& kind,
                    const std::string& subscription) const;

 private:
  answer settings_doc(const std::string& player, const std::string& new_secret);
  // "" when acceptable; else bad_url or private_address.
  std::string check_url(const std::string& url) const;

  std::unique_ptr<notify_store> db_;
  service_settings settings_;
  std::string secret_;
};

}  // namespace carcassonne::server::notify
