#include "cluster/moved.hpp"

#include "carcassonne/protocol/messages.hpp"

namespace carcassonne::server {

nlohmann::json moved_answer(const cluster_lobby::location& where, const std::string& room,
                            const nlohmann::json& id, bool bounced, metrics& m) {
  using kind = cluster_lobby::location::kind;
  if (where.what == kind::elsewhere && !bounced)
    return protocol::reply("moved", id, {{"room", room}, {"url", where.url}});
  m.rejected("room_unavailable");
  // A request already moved once that still meets another owner (a forged or stale `moved`,
  // or the room changed hands meanwhile): refused rather than bounced again.
  const std::string why =
      where.what == kind::elsewhere
          ? "room '" + room +
                "' is held by another instance and this request was already moved "
                "once: try again from the start"
          : "the instance holding room '" + room + "' is not answering: try again in a few seconds";
  return protocol::error_message({"room_unavailable", why}, id);
}

std::optional<nlohmann::json> placed_elsewhere(const cluster_lobby& cluster,
                                               const nlohmann::json& id, bool bounced) {
  if (bounced) return std::nullopt;
  auto url = cluster.placement();
  if (!url) return std::nullopt;
  return protocol::reply("moved", id, {{"url", *url}});
}

}  // namespace carcassonne::server
