// A room that stops here without writing again, its connections sent to resume where it is served
// next: in a cluster, when another instance took its lease (docs/scaling.md "Failover"); on any
// server, when a change of it could not be stored (docs/hosting.md "When the database fails").
#include <spdlog/spdlog.h>

#include "room/room.hpp"

namespace carcassonne::server {

namespace {
protocol::proto_error moved_error(const std::string& room) {
  return {"room_moved",
          "another instance serves room " + room + " now: reconnect and resume with your token"};
}
}  // namespace

void room::refuse_moved(const client_ptr& c, const json& id) {
  if (metrics_) metrics_->rejected("room_moved");
  if (c)
    c->deliver(std::make_shared<const std::string>(
        protocol::error_message(moved_error(settings_.id), id).dump()));
}

void room::lease_lost() {
  if (writes_.stopped()) return;
  spdlog::warn("room {}: another instance owns it now; its connections are sent away",
               settings_.id);
  // Frames held for writes that were not stored (or not yet): nobody sees them.
  writes_.stop([](const client_ptr&, const frame_ptr&) {});
  stop_here(moved_error(settings_.id));
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
  stop_here({"room_moved", "room " + settings_.id +
                               " stopped: the server could not store its last change. Resume "
                               "with your token: room_unavailable until its database answers"});
}

void room::stop_here(const protocol::proto_error& why) {
  // The callers have stopped the writes (the held frames dropped, or answers turned into
  // refusals): the room takes no more moves, bots and clocks stop acting, and it writes nothing
  // more (what is stored is the truth).
  bots_.cancel_turn();
  const auto frame = std::make_shared<const std::string>(protocol::error_message(why).dump());
  std::vector<client_ptr> gone;
  for (auto& s : members_.seats)
    if (s.client) gone.push_back(std::exchange(s.client, nullptr));
  for (auto& c : members_.spectators) gone.push_back(c);
  members_.spectators.clear();
  members_.relay = nullptr;  // its link drops the error (the next owner's snapshot fills the gap)
  for (const auto& c : gone) {
    c->deliver(frame);
    c->set_room(settings_.id, false);
  }
  publish_summary();
}

}  // namespace carcassonne::server
