// The lobby: every room of the server, each with the strand its calls run on. Thread-safe.
#pragma once
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "carcassonne/protocol/messages.hpp"
#include "carcassonne/server/bot_pool.hpp"
#include "carcassonne/server/config.hpp"
#include "carcassonne/server/metrics.hpp"
#include "carcassonne/server/room.hpp"
#include "carcassonne/server/store.hpp"

namespace carcassonne::server {

struct room_entry {
  std::shared_ptr<room> game_room;
  boost::asio::strand<boost::asio::any_io_executor> strand;
};

class lobby {
 public:
  lobby(boost::asio::any_io_executor executor, const config& c, metrics& m)
      : executor_(std::move(executor)),
        config_(c),
        metrics_(m),
        bots_(std::make_unique<bot_pool>(c.bot_threads, &m)) {}

  // Validates the settings (expansions, options, scripts) and creates a room; the answer is
  // the room's id or an error (bad_setup and the engine's setup codes, server_full).
  struct created {
    std::shared_ptr<room_entry> entry;
    protocol::proto_error error;
  };
  created create(const protocol::create_room_msg& m, std::weak_ptr<const client_link> creator);

  // Rooms are written to `s` from now on (nullptr: memory only). Call before any room exists.
  void attach_store(store* s) { store_ = s; }
  // Rebuilds every unfinished room of the store (server start). False, with a message, when a
  // stored room cannot be rebuilt: the server must not start without it.
  bool restore(std::string& error);

  // A game's record (game-record.md) once it is finished, from memory or from the store.
  enum class record_status { found, not_finished, unknown };
  record_status finished_record(const std::string& id, nlohmann::json& record) const;

  std::shared_ptr<room_entry> find(const std::string& id) const;
  // Public rooms, newest last.
  nlohmann::json list() const;
  // Forgets a room if nobody can come back to it.
  void forget_if_abandoned(const std::string& id);
  std::size_t size() const;
  // Forgets every room (server teardown, after the I/O threads have stopped).
  void clear();
  // Stops the bots' workers (server teardown, before clear()).
  void stop_bots() { bots_->stop(); }

 private:
  bool make_space();  // drops abandoned rooms when at the cap
  std::shared_ptr<room_entry> add(std::shared_ptr<room> r);  // under mutex_
  // A finished room's rematch: a new room with those seats, its game started; its id, or empty
  // when the server is full.
  std::string spawn_rematch(room_settings s, const std::vector<room::seat_init>& seats);
  void forget_stored(const room& r);  // a dropped room that was not finished leaves the store too

  boost::asio::any_io_executor executor_;
  const config& config_;
  metrics& metrics_;
  store* store_ = nullptr;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<room_entry>> rooms_;
  std::vector<std::string> order_;  // creation order, for listing and eviction
  std::unique_ptr<bot_pool> bots_;  // every room's bots think here
};

}  // namespace carcassonne::server
