// The queue of seekers (docs/protocol.md "Quick play"): in memory for one instance
// (memory_seek_queue), one queue for the whole cluster on Redis (cluster/seek_queue_redis.cpp).
// Only connected seekers wait: a connection that closes cancels its seek, and an instance that
// dies takes its seekers' seeks with it (the matchmaker prunes them), so the queue needs no
// database.
//
// Thread-safe. Every call answers quickly and reports a failure (Redis unreachable) as an error.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "competition/matchmaker.hpp"

namespace carcassonne::server::competition {

class seek_queue {
 public:
  virtual ~seek_queue() = default;
  enum class added { yes, already_seeking, failed };
  // Queues `s` unless its player already seeks (one seek per player).
  virtual added add(const seek& s, std::string& error) = 0;
  // Cancels the player's seek; false when there was none (or on error, with `error`).
  virtual bool remove(const std::string& player, std::string& error) = 0;
  // The matchmaker runs on one instance at a time: true when this instance holds that role now
  // (a single instance always does; in a cluster, a Redis lock it takes or renews here, which
  // lapses when it stops renewing).
  virtual bool lead(std::string& error) = 0;
  // Every queued seek; nothing on error.
  virtual std::optional<std::vector<seek>> all(std::string& error) = 0;
  // Removes the seeks of `players` if every one of them is still queued, all at once (atomic);
  // false, removing nothing, when one of them is gone (cancelled, or matched elsewhere): no
  // player is ever matched twice.
  virtual bool take(std::span<const std::string> players, std::string& error) = 0;
  // Removes the seeks whose instance is not one of `live` (a dead instance's seekers).
  virtual void prune(std::span<const std::string> live, std::string& error) = 0;
  // Tells every instance, this one included, of a match: `notice` is a JSON text that each
  // instance's listener receives (on a thread of the queue's own).
  virtual bool announce(const std::string& notice, std::string& error) = 0;
  virtual void on_notice(std::function<void(const std::string& notice)> listener) = 0;
  // Stops the listener's thread, if any (server teardown).
  virtual void stop() {}
};

// One instance: a map under a mutex; announce() calls the listener at once, on the caller.
std::unique_ptr<seek_queue> make_memory_seek_queue();

}  // namespace carcassonne::server::competition
