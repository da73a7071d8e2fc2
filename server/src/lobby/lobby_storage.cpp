// The lobby's part when the database fails (docs/hosting.md "When the database fails"): a room
// whose change could not be stored leaves memory at once, and is rebuilt from what the store
// holds once the store answers again, as a cluster adopts a dead instance's room.
#include <spdlog/spdlog.h>

#include "lobby/lobby.hpp"

namespace carcassonne::server {

void lobby::attach_store(store* s) {
  store_ = s;
  if (store_) store_->on_recovered([this] { revive_rooms(); });
}

lobby::~lobby() {
  if (store_) store_->on_recovered(nullptr);
}

bool lobby::awaiting_store(const std::string& id) const {
  std::lock_guard lock(mutex_);
  return awaiting_store_.count(id) != 0;
}

void lobby::storage_lost(const std::shared_ptr<room_entry>& e) {
  {
    std::lock_guard lock(mutex_);
    const auto& id = e->game_room->id();
    awaiting_store_[id] = e->game_room->writes().generation();
    if (auto it = rooms_.find(id); it != rooms_.end() && it->second == e)
      drop(id, "stopped: a change could not be stored");
  }
  // The store may answer again already: then the rooms are rebuilt at once.
  if (store_) store_->request_recovery_call();
}

void lobby::revive_rooms() {
  std::map<std::string, std::uint64_t> waiting;
  {
    std::lock_guard lock(mutex_);
    waiting = awaiting_store_;
  }
  for (const auto& [id, generation] : waiting) {
    // Nothing of the stopped room can write any more: its writes still queued are refused, and
    // the rebuilt room's are taken.
    store_->readmit(id);
    std::string error;
    auto stored = store_->load(id, error);
    if (!error.empty() && store_->degraded()) {  // failing again: the next recovery tries again
      spdlog::warn("room {}: cannot read it from the database yet: {}", id, error);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      const auto it = awaiting_store_.find(id);
      if (it == awaiting_store_.end() || it->second != generation) continue;  // taken meanwhile
      awaiting_store_.erase(it);
    }
    if (!error.empty()) {  // the database answers, but not this room: it is damaged
      spdlog::error("room {}: cannot read it from the database: {}", id, error);
      continue;
    }
    if (!stored) {
      spdlog::info("room {}: not in the database any more", id);
      continue;
    }
    if (adopt(*stored, generation, error))
      spdlog::info("room {} rebuilt from the database after a failed write", id);
    else
      spdlog::error("room {}: cannot rebuild it from the database: {}", id, error);
  }
}

}  // namespace carcassonne::server
