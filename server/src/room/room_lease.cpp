// A room that stops here without writing again, its connections sent to resume where it is served
// next: in a cluster, when another instance took its lease (docs/scaling.md "Failover"); on any
// server, when a change of it could not be stored (docs/hosting.md "When the database fails").
#include <spdlog/spdlog.h>

#include <memory>
#include <utility>
#include <vector>

#include "room/room.hpp"

namespace carcassonne::server {

namespace {

// Every connection of a stopped room told `why`, and out of it; the relay's link too (it drops
// the error: the next owner's snapshot fills the gap).
void send_away(room_members& members, const std::string& room_id,
               const protocol::proto_error& why) {
  const auto frame = std::make_shared<const std::string>(protocol::error_message(why).dump());
  std::vector<client_ptr> gone;
  for (auto& s : members.seats)
    if (s.client) gone.push_back(std::exchange(s.client, nullptr));
  for (auto& c : members.spectators) gone.push_back(c);
  members.spectators.clear();
  members.relay = nullptr;
  for (const auto& c : gone) {
    c->deliver(frame);
    c->set_room(room_id, false);
  }
}

}  // namespace

void room::lease_lost() {
  if (writes_.stopped()) return;
  spdlog::warn("room {}: another instance owns it now; its connections are sent away",
               settings_.id);
  // Frames held for writes that were not stored (or not yet): nobody sees them.
  writes_.stop([](const client_ptr&, const frame_ptr&) {});
  // The room takes no more moves, its bots and clocks stop acting, it writes nothing more.
  bots_.cancel_turn();
  send_away(members_, settings_.id, {"room_moved", moved_message(settings_.id)});
  publish_summary();
}

void room::storage_lost() {
  if (writes_.stopped()) return;
  spdlog::error(
      "room {}: a change could not be stored: the room stops, and is rebuilt from the database "
      "once it answers",
      settings_.id);
  // Nothing held for the lost writes leaves: an answer among it becomes a refusal (nothing of a
  // failed commit is acknowledged), the rest is dropped.
  const auto refusal = [](const std::string& text) -> frame_ptr {
    const auto held = json::parse(text, nullptr, false);
    if (!held.is_object() || !held.contains("id") || held["id"].is_null() ||
        held.value("type", "") == "error")
      return nullptr;
    return std::make_shared<const std::string>(
        protocol::error_message(
            {"storage_failed", "the server could not store this change: it was not applied"},
            held["id"])
            .dump());
  };
  // The lobby lets go of the room first: once a connection hears of the stop, a resume must find
  // the room awaiting its database (room_unavailable), not this stopped one.
  if (hooks_.storage_lost) hooks_.storage_lost();
  writes_.stop([&](const client_ptr& c, const frame_ptr& held) {
    if (auto f = refusal(*held)) c->deliver(std::move(f));
  });
  bots_.cancel_turn();
  send_away(members_, settings_.id,
            {"room_moved", "room " + settings_.id +
                               " stopped: the server could not store its last change. Resume "
                               "with your token: room_unavailable until its database answers"});
  publish_summary();
}

}  // namespace carcassonne::server
