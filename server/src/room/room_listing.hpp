// What the lobby and the record endpoint read of a room from any thread: its summary, and the
// record of its game once it is over. The record's parts are copied when the game ends and its
// tree is built at the first ask, then kept (most records are never asked for). Thread-safe.
#pragma once
#include <nlohmann/json.hpp>

#include <mutex>
#include <optional>
#include <utility>

#include "room/room_settings.hpp"
#include "table/record_parts.hpp"

namespace carcassonne::server {

class room_listing {
 public:
  // The summary's parts that never change (the expansions; the match options unless default).
  room_listing(nlohmann::json expansions, nlohmann::json match);

  // Room strand: `s` replaces the summary (its never-changing parts filled in). `parts()` gives the
  // record's parts, asked for once, the first time `finished` is published; true then.
  template <class Parts>
  bool publish(room_summary s, bool finished, Parts&& parts) {
    std::lock_guard lock(mutex_);
    s.expansions = std::move(summary_.expansions);
    s.match = std::move(summary_.match);
    summary_ = std::move(s);
    if (!finished || parts_ || record_) return false;
    parts_ = parts();
    return true;
  }

  room_summary summary() const;
  // No connection, and nobody can come back (waiting room emptied, or game over).
  bool abandoned() const;
  // The record once the game is over, else nothing.
  std::optional<nlohmann::json> finished_record() const;

 private:
  mutable std::mutex mutex_;
  room_summary summary_;
  mutable std::optional<record_parts> parts_;     // until the record is built
  mutable std::optional<nlohmann::json> record_;  // once built
};

}  // namespace carcassonne::server
