// Spectators on every instance (docs/scaling.md "Spectators on every instance"): a room's public
// stream relayed through Redis to the instances that watch it for their spectators.
//
// Owner side: an instance that watches room R publishes, every second, on `carcassonne:audience`
// how many spectators it has for R (and whether it waits for a snapshot). The instance holding R
// then gives the room a link (room::attach_relay) that gets exactly what a spectator there gets
// (the spectator delay applied, the same bytes with their seq) from a snapshot on, and publishes
// it on `carcassonne:spectate:<R>`; with nobody watching for the audience's TTL the link goes.
//
// Watcher side: one subscription per room per instance, shared by its spectators of the room;
// each spectator gets `spectating`, a snapshot, then every frame in seq order (relay_feed); a
// gap (a message lost, the owner dead and its room adopted) is filled by a fresh snapshot.
//
// Two threads of its own (one connection each): one subscribed, one publishing. Thread-safe.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <string>

#include "room/client_link.hpp"

namespace carcassonne::server {

class lobby;

class spectator_relay {
 public:
  struct options {
    std::string redis_url, instance_id;
    std::size_t max_spectators = 10000;            // per room and per instance (--max-spectators)
    std::chrono::milliseconds period{1000};        // of the audience messages
    std::chrono::milliseconds audience_ttl{3000};  // an audience not told again goes
    // Spectators that waited this long for a snapshot, subscribed, are let go (room_moved): no
    // instance relays the room (its owner died after its end, or holds it no more).
    std::chrono::milliseconds give_up{10000};
  };
  // Nothing, with a message, for a bad URL; Redis unreachable is retried by the threads.
  static std::unique_ptr<spectator_relay> open(const options& o, lobby& rooms, std::string& error);
  ~spectator_relay();
  spectator_relay(const spectator_relay&) = delete;
  spectator_relay& operator=(const spectator_relay&) = delete;

  // `c` spectates `room`, held by another instance: it is told `spectating` (with `id`) at once,
  // then gets the stream from the next snapshot on. False when this instance has max_spectators
  // spectators of the room already (too_many_spectators).
  bool watch(const std::string& room, const client_ptr& c, const nlohmann::json& id);
  void unwatch(const std::string& room, const client_ptr& c);  // a leave or the end of `c`
  // Whether `room` is watched here already: a spectator more needs no lookup of its owner.
  bool watches(const std::string& room) const;
  // `c` asks for a snapshot (with `id`): the next one from the owner is its answer.
  void snapshot(const std::string& room, const client_ptr& c, const nlohmann::json& id);

  struct impl;

 private:
  explicit spectator_relay(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

}  // namespace carcassonne::server
