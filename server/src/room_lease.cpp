// A room of a cluster whose lease another instance took (docs/scaling.md "Failover"): it stops
// here without writing again, and its connections are sent to find the new owner.
#include <spdlog/spdlog.h>

#include "carcassonne/server/room.hpp"

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
  if (moved_away_) return;
  moved_away_ = true;
  storage_failed_ = true;  // takes no more moves, bots and clocks stop acting
  store_ = nullptr;        // and writes nothing more: the new owner's journal is the truth
  // Frames held for writes that were not stored (or not yet): nobody sees them.
  outbox_.clear();
  writes_durable_ = writes_issued_;
  cancel_bot_turn();
  spdlog::warn("room {}: another instance owns it now; its connections are sent away",
               settings_.id);
  const auto frame = std::make_shared<const std::string>(
      protocol::error_message(moved_error(settings_.id)).dump());
  std::vector<client_ptr> gone;
  for (auto& s : seats_)
    if (s.client) gone.push_back(std::exchange(s.client, nullptr));
  for (auto& c : spectators_) gone.push_back(c);
  spectators_.clear();
  for (const auto& c : gone) {
    c->deliver(frame);
    c->set_room(settings_.id, false);
  }
  publish_summary();
}

}  // namespace carcassonne::server
