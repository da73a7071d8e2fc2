// The queue of seekers of a whole cluster (competition/seek_queue.hpp), on Redis: every seek in
// the hash carcassonne:seeks (field: the player id, value: the seek's JSON, with its instance),
// the matchmaker's role in the key carcassonne:matchmaker (the leader's instance id, expiring
// after `lock_ttl` unless renewed), match notices on the channel carcassonne:matches. Removals
// that must be all-or-nothing (take, prune) and the lock's renewal are Lua scripts, atomic in
// Redis.
//
// Thread-safe: commands share one connection behind a mutex (reconnected after an error, each
// answering within a second); the notices come on a connection and thread of their own, which
// reconnect after a failure until stop().
#pragma once
#include <chrono>
#include <memory>
#include <string>

#include "competition/seek_queue.hpp"

namespace carcassonne::server {

// Connects and checks Redis (`redis_url`: redis://[:password@]host[:port][/db]); nothing, with a
// message naming the URL, when it cannot. `instance_id`: this instance, the leader's name, and the
// instance of a seek added here without one.
std::unique_ptr<competition::seek_queue> make_redis_seek_queue(const std::string& redis_url,
                                                               const std::string& instance_id,
                                                               std::chrono::milliseconds lock_ttl,
                                                               std::string& error);

}  // namespace carcassonne::server
