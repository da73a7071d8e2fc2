#include "cluster/cluster_adoption.hpp"

#include <spdlog/spdlog.h>

namespace carcassonne::server {

std::size_t adopt_orphan_rooms(room_directory& directory, store& db, lobby& rooms,
                               std::chrono::milliseconds budget) {
  const auto stop_at = std::chrono::steady_clock::now() + budget;
  std::string error;
  std::vector<std::string> candidates;
  for (auto& id : db.unfinished_ids(error))
    if (!rooms.find(id)) candidates.push_back(std::move(id));
  if (!error.empty()) {
    spdlog::warn("cluster: cannot list the rooms to adopt: {}", error);
    return 0;
  }
  if (candidates.empty()) return 0;
  std::size_t adopted = 0;
  for (const auto& id : directory.unleased(candidates, error)) {
    if (std::chrono::steady_clock::now() > stop_at) break;
    room_lease holder;
    const auto generation = directory.acquire(id, holder, error);
    if (!generation) {
      if (!error.empty()) return adopted;  // Redis lost: the next heartbeat says so
      continue;                            // another live instance won it
    }
    // The fence first: from its commit on, the old owner's writes are refused, so the journal
    // read next is the whole of what was acknowledged.
    if (!db.take_room(id, *generation, error)) {
      spdlog::error("cluster: room {}: cannot fence the store: {}", id, error);
      error.clear();
      // Redis lost its counters: the next pass takes the room above the recorded generation.
      if (const auto recorded = db.recorded_generation(id, error); recorded >= *generation)
        directory.raise_generation(id, recorded, error);
      directory.release(id);
      error.clear();
      continue;
    }
    auto stored = db.load(id, error);
    if (stored && stored->state != room_state::finished &&
        rooms.adopt(*stored, *generation, error)) {
      ++adopted;
      continue;
    }
    // Deleted or finished meanwhile, or not rebuildable: nobody serves it from here.
    if (!error.empty()) spdlog::error("cluster: room {}: cannot adopt it: {}", id, error);
    directory.release(id);
    error.clear();
  }
  if (adopted) spdlog::info("cluster: {} rooms of dead instances adopted", adopted);
  return adopted;
}

}  // namespace carcassonne::server
