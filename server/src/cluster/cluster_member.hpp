// This instance's membership of a cluster (`--redis`, docs/scaling.md): it registers in the room
// directory with its public URL and load, renews its heartbeat and its rooms' leases from its own
// thread, and takes the lease of each room it creates. While Redis is unreachable (at start or
// later) it keeps serving the rooms it has, refuses new ones, and says so in the log and /healthz.
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/directory.hpp"

namespace carcassonne::server {

class cluster_member {
 public:
  // `load` (any thread) counts this instance's rooms for the placement of new ones.
  cluster_member(room_directory::options o, std::function<std::int64_t()> load);
  // Failover (docs/scaling.md), on the member's thread unless said otherwise. With hooks, the
  // instance gives up at start every lease Redis still has in its name (a restart: those rooms
  // are not in its memory), and after every heartbeat runs `lost` for each lease another
  // instance took, then `after_beat` (the adoption of dead instances' rooms). `claimed` runs on
  // claim()'s thread with the generation of each lease it takes.
  struct failover_hooks {
    std::function<void(const std::string& room)> lost;
    std::function<void(room_directory&)> after_beat;
    std::function<void(const std::string& room, std::uint64_t generation)> claimed;
  };
  cluster_member(room_directory::options o, std::function<std::int64_t()> load,
                 failover_hooks hooks);
  ~cluster_member();  // stops the heartbeat; leases not given up (leave()) lapse by themselves
  cluster_member(const cluster_member&) = delete;
  cluster_member& operator=(const cluster_member&) = delete;

  bool reachable() const { return reachable_.load(); }
  // Takes the lease of a room created here; false (Redis unreachable, or the id owned elsewhere)
  // means the room must not be offered.
  bool claim(const std::string& room);
  const std::string& instance_id() const { return options_.instance_id; }
  // The live instances' ids (empty when Redis cannot say now).
  std::vector<std::string> live_instances();
  // A room that left this instance's memory for good (finished and stored, closed, expired): its
  // lease is given up at the next heartbeat, so that no instance takes this one for its owner.
  // Never blocks (any thread, under any lock).
  void release(const std::string& room);
  // A graceful stop: stop() ends the heartbeats (no renewal or adoption any more); leave(), once
  // everything the rooms wrote is stored, gives every lease this instance holds up at once (other
  // instances adopt its unfinished rooms at their next heartbeat instead of after the TTL).
  void stop();
  void leave();

 private:
  void beat();  // one heartbeat: (re)connects, registers, renews
  void loop();

  room_directory::options options_;
  std::function<std::int64_t()> load_;
  std::mutex mutex_;  // guards directory_ (re-opened after a failed start)
  std::unique_ptr<room_directory> directory_;
  std::atomic<bool> reachable_{false};
  bool first_beat_ = true;  // under mutex_
  failover_hooks hooks_;
  bool released_ = false;  // the leases of a previous life given up (with hooks)
  std::mutex release_mutex_;
  std::vector<std::string> to_release_;  // release(), under release_mutex_
  std::mutex wait_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace carcassonne::server
