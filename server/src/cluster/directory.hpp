// The room directory of a cluster (docs/scaling.md), kept in Redis (`--redis redis://...`):
// every instance registers its public WebSocket URL and its load with a heartbeat that expires;
// each room is owned by one instance through a lease with a TTL and a generation that grows at
// every new owner (the fence of the store's writes); each instance's public rooms are listed
// there for every lobby, and their changes are published on a channel.
//
// Thread-safe: one connection behind a mutex, reconnected after any error. Every call answers
// quickly (a command timeout) and reports Redis unreachable as an error, never by blocking.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace carcassonne::server {

struct instance_info {
  std::string id, url;
  std::int64_t rooms = 0;  // the load the placement of new rooms looks at
};

// A room's lease as Redis holds it.
struct room_lease {
  std::string owner;             // instance id
  std::uint64_t generation = 0;  // grows by one at every new owner
};

class room_directory {
 public:
  struct options {
    std::string redis_url;  // redis://[:password@]host[:port][/db]
    std::string instance_id, public_url;
    std::chrono::milliseconds ttl{3000};  // of heartbeats and leases; renew well within it
  };
  // Connects and checks Redis; nothing with a message naming the URL on error.
  static std::unique_ptr<room_directory> open(const options& o, std::string& error);
  ~room_directory();
  room_directory(const room_directory&) = delete;
  room_directory& operator=(const room_directory&) = delete;

  // Registers this instance with its load and renews every lease it holds; the leases that are
  // no longer its own (expired and taken) are returned: their rooms must stop at once.
  std::vector<std::string> heartbeat(std::int64_t rooms, std::string& error);

  // Takes the lease of `room` if nobody holds it (a new generation) or keeps it if this
  // instance does; nothing when another live instance holds it (`holder` says who).
  std::optional<std::uint64_t> acquire(const std::string& room, room_lease& holder,
                                       std::string& error);
  void release(const std::string& room);  // only if still this instance's
  std::optional<room_lease> lease_of(const std::string& room, std::string& error);

  // The live instances (heartbeat not expired), by id; the least loaded one, ties by id.
  std::vector<instance_info> instances(std::string& error);
  std::optional<instance_info> least_loaded(std::string& error);
  std::optional<std::string> url_of(const std::string& instance, std::string& error);

  // This instance's entry for a public room in every lobby (JSON text), or its removal; each
  // change is published on the channel `carcassonne:lobby` (the room's id).
  bool publish_room(const std::string& room, const std::string& summary, std::string& error);
  bool unpublish_room(const std::string& room, std::string& error);
  // The public rooms of every live instance, as stored by publish_room, by instance then room.
  std::vector<std::string> lobby(std::string& error);

  // One lobby entry of a live instance, as stored by publish_room, with its owner's URL.
  struct lobby_entry {
    std::string instance, url, room, summary;
  };
  // Every live instance's entries, by instance then room; one instance's entry for `room`.
  std::vector<lobby_entry> lobby_entries(std::string& error);
  std::optional<std::string> lobby_entry_of(const std::string& instance, const std::string& room,
                                            std::string& error);
  // Blocks on a connection of its own subscribed to `carcassonne:lobby`, calling `on_room` with
  // each published room id, until the connection fails or stop_subscription() (any thread)
  // cuts it; false with a message on failure.
  bool subscribe_lobby(const std::function<void(const std::string&)>& on_room, std::string& error);
  void stop_subscription();
  // Failover (docs/scaling.md): those of `rooms` that nobody leases (their owner died, or never
  // took one), in their order; and every lease of this instance given up at once (a restarted
  // instance, whose memory no longer holds those rooms: they are anybody's to adopt).
  std::vector<std::string> unleased(const std::vector<std::string>& rooms, std::string& error);
  bool release_owned(std::string& error);
  // The room's generation counter raised to `at_least` (a Redis that lost its data counts from 1
  // again, below the generation the store records: the next acquire must be above it).
  bool raise_generation(const std::string& room, std::uint64_t at_least, std::string& error);

  const std::string& instance_id() const;
  bool reachable() const;  // the last command reached Redis

 private:
  struct impl;
  explicit room_directory(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

}  // namespace carcassonne::server
