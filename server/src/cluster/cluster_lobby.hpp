// The lobby of a cluster (`--redis`, docs/scaling.md): publishes this instance's public rooms in
// the room directory, keeps a copy of every other live instance's entries, refreshed entry by
// entry from the lobby channel, and says where a room lives (`moved`) and where a new room goes.
// All its Redis work runs on two threads of its own (a worker and a subscriber), never on a
// room's strand or an I/O thread; its public functions are thread-safe and never block on Redis.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cluster/directory.hpp"
#include "lobby/lobby.hpp"

namespace carcassonne::server {

class cluster_lobby {
 public:
  // `local` outlives this object.
  cluster_lobby(room_directory::options o, const lobby& local);
  ~cluster_lobby();  // stops both threads; the entries lapse with the instance's heartbeat
  cluster_lobby(const cluster_lobby&) = delete;
  cluster_lobby& operator=(const cluster_lobby&) = delete;

  // The public rooms of every live instance (this one's from memory), oldest first by the time
  // each was first published, ties by id; every entry carries its owner's `url`.
  lobby::page list(const protocol::room_filter& filter) const;

  // Where a room that this instance does not hold lives, from its lease.
  struct location {
    enum class kind { here, elsewhere, unavailable } what = kind::here;
    std::string url;  // elsewhere: the owner's public URL
  };
  // Looks the room up on the worker thread; `done` runs there (post back to your strand).
  void locate(std::string room, std::function<void(location)> done);
  // The public URL of the least loaded live instance (rooms, ties by id) when it is not this one.
  std::optional<std::string> placement() const;

 private:
  struct remote_entry {
    std::string instance, url;
    long long created = 0;
    nlohmann::json summary;
  };
  struct published {
    std::string text;  // what Redis holds
    long long created = 0;
  };
  void work();
  void subscribe();
  void publish_changes();                 // worker
  void reload();                          // worker: every live instance's entries and loads
  void refresh(const std::string& room);  // worker: one entry, after a message
  void answer_locates();                  // worker

  room_directory::options options_;
  const lobby& local_;
  std::unique_ptr<room_directory> directory_;     // the worker's connection
  std::unique_ptr<room_directory> subscription_;  // the subscriber's
  std::map<std::string, published> published_;    // worker only: this instance's entries

  mutable std::mutex mutex_;                    // guards everything below
  std::map<std::string, long long> created_;    // this instance's rooms: first published
  std::map<std::string, remote_entry> remote_;  // other instances' rooms, by room id
  std::vector<instance_info> instances_;        // the live instances at the last reload
  std::set<std::string> dirty_;                 // rooms named on the channel since
  std::deque<std::pair<std::string, std::function<void(location)>>> locates_;
  bool stopping_ = false;
  std::condition_variable wake_;
  std::thread worker_, subscriber_;
};

}  // namespace carcassonne::server
