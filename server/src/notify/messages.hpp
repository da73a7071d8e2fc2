// What a delivery says, per channel (docs/protocol.md §23 "Notifications"): one message for
// everything a player's batch holds, built from its notices ({key, kind, room, data}).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "notify/channels.hpp"

namespace carcassonne::server::notify {

// The delivery's id, the idempotency key sent with it: 32 hex digits of a digest of the channel,
// the target and the notices' keys (a push Topic holds 32 characters).
std::string delivery_id(const std::string& channel, const std::string& target,
                        const std::vector<std::string>& keys);

// `page_url`: the page's origin ("" for links relative to it); `unsubscribe`: its path and query.
push_message push_of(const std::string& id, const nlohmann::json& notices,
                     const std::string& unsubscribe);
webhook_message webhook_of(const std::string& id, const std::string& player,
                           const nlohmann::json& notices, const std::string& page_url,
                           const std::string& unsubscribe, long long now_s);
mail mail_of(const std::string& id, const std::string& to, const nlohmann::json& notices,
             const std::string& page_url, const std::string& unsubscribe);

}  // namespace carcassonne::server::notify
