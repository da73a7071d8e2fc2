// The network server: HTTP and WebSocket on one port (docs/protocol.md, docs/hosting.md).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>

#include "base/config.hpp"

namespace carcassonne::server {

class metrics;
class lobby;

class server {
 public:
  explicit server(config c);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // Opens the database and rebuilds its rooms (when the journal is on), binds the port and
  // starts accepting; false with a message when the database or the port cannot be had.
  bool listen(std::string& error);
  bool open_store(std::string& error);  // the first half of listen()
  std::uint16_t port() const;
  // Runs the I/O threads (config.threads) until the server has stopped; the caller's thread
  // is one of them.
  void run();
  // Graceful stop, from any thread: refuse new connections, tell every client goodbye, close,
  // then stop after at most config.shutdown_grace_seconds.
  void stop();
  // Stops on SIGINT and SIGTERM.
  void stop_on_signals();

  metrics& stats();
  lobby& rooms();

 private:
  void join_cluster();      // the end of listen(), with --redis
  bool fails_over() const;  // --redis with a PostgreSQL store: rooms are adopted, not restored
  bool open_accounts(std::string& error);        // in the store's database, after open_store
  bool start_notifications(std::string& error);  // with accounts
  bool start_competitions(std::string& error);   // the end of listen(), with accounts
  struct impl;
  std::unique_ptr<impl> impl_;
};

// `carcassonne serve [OPTIONS]`.
int run_serve(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace carcassonne::server
