// The lobby's part in a cluster's failover (docs/scaling.md): rooms adopted from a dead instance
// join the lobby as rooms rebuilt at start do; rooms whose lease another instance took leave it.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "lobby/lobby.hpp"

namespace carcassonne::server {

bool lobby::adopt(const stored_room& stored, std::uint64_t generation, std::string& error) {
  auto r = room::restore(stored, &metrics_, error);
  if (!r) return false;
  r->set_lease_generation(generation);
  std::shared_ptr<room_entry> entry;
  {
    std::lock_guard lock(mutex_);
    if (rooms_.count(stored.id)) return error = "room " + stored.id + " is here already", false;
    entry = add(std::shared_ptr<room>(std::move(r)));
  }
  // As after a restart: nobody is connected yet, a waiting room expires unless its players come.
  boost::asio::post(entry->strand, [this, entry] { arm_expiry(entry); });
  spdlog::info("room {} adopted (lease generation {}, {} moves replayed)", stored.id, generation,
               stored.moves.size());
  return true;
}

void lobby::lease_lost(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    awaiting_store_.erase(id);  // stopped by a failed write meanwhile: not this instance's now
  }
  auto e = find(id);
  if (!e) return;
  boost::asio::post(e->strand, [this, e] {
    e->game_room->lease_lost();
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(e->game_room->id()); it != rooms_.end() && it->second == e)
      drop(e->game_room->id(), "left: another instance owns it now");
  });
}

}  // namespace carcassonne::server
