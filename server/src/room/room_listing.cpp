#include "room/room_listing.hpp"

namespace carcassonne::server {

room_listing::room_listing(nlohmann::json expansions, nlohmann::json match) {
  summary_.expansions = std::move(expansions);
  summary_.match = std::move(match);
}

room_summary room_listing::summary() const {
  std::lock_guard lock(mutex_);
  return summary_;
}

bool room_listing::abandoned() const {
  std::lock_guard lock(mutex_);
  // Bots alone do not keep a waiting room: nobody could start it.
  const auto humans = summary_.taken - static_cast<int>(summary_.bots.size());
  return summary_.connections == 0 && (summary_.state == room_state::finished ||
                                       (summary_.state == room_state::waiting && humans == 0));
}

std::optional<nlohmann::json> room_listing::finished_record() const {
  std::lock_guard lock(mutex_);
  if (parts_) {
    record_ = record_of(*parts_);
    parts_.reset();
  }
  return record_;
}

}  // namespace carcassonne::server
