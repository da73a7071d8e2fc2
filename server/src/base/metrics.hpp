// Process-wide counters for /metrics (Prometheus text format). Lock-free: any thread updates.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace carcassonne::server {

class metrics {
 public:
  static constexpr std::array<double, 12> latency_buckets{
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0};
  std::atomic<std::int64_t> connections{0};
  std::atomic<std::int64_t> connections_total{0};
  std::atomic<std::int64_t> rooms{0};
  std::atomic<std::int64_t> games_started{0};
  std::atomic<std::int64_t> games_finished{0};
  std::atomic<std::int64_t> moves_accepted{0};
  std::atomic<std::int64_t> messages_in{0}, messages_out{0};
  std::atomic<std::int64_t> socket_writes{0};  // WebSocket writes, each of the frames queued
  std::atomic<std::int64_t> bytes_in{0}, bytes_out{0};
  // TCP connections accepted, and the asynchronous accepts that took them (several waiting
  // connections are taken at once): for tests, not in /metrics.
  std::atomic<std::int64_t> accepted{0}, accept_wakeups{0};
  std::atomic<std::int64_t> dropped_slow{0}, dropped_flood{0}, dropped_oversize{0};
  // Bots (bot_pool, room_bots.cpp): moves played, results dropped as stale, time and playouts.
  std::atomic<std::int64_t> bot_moves{0}, bot_results_dropped{0}, bot_takeovers{0};
  std::atomic<std::int64_t> bot_think_ns{0}, bot_playouts{0};
  std::atomic<std::int64_t> bot_searches_running{0}, bot_searches_queued{0};
  // Refusals by the server-wide and per-address limits (docs/hosting.md), by reason.
  enum class refusal {
    server_connections,       // --max-connections
    address_connections,      // --max-connections-per-address
    address_connection_rate,  // --address-connection-rate
    address_flood,            // turned away at accept: refused faster than that rate
    address_messages,         // --address-message-rate: a message refused
    address_rooms,            // --address-room-rate: a room creation refused
    public_rooms,             // --max-public-rooms-per-address or -per-connection
    bad_http,                 // a malformed HTTP request answered 400/431
    count
  };
  void refused(refusal r) {
    refused_[static_cast<std::size_t>(r)].fetch_add(1, std::memory_order_relaxed);
  }
  std::int64_t refused_count(refusal r) const {
    return refused_[static_cast<std::size_t>(r)].load();
  }

  void rejected(std::string_view code);
  void observe_move_seconds(double seconds);
  std::string render() const;
  void render_bot_metrics(std::ostream& o) const;

 private:
  // Every engine error code, then the protocol's and the server's, then "other".
  static const std::vector<std::string>& codes();
  static constexpr std::size_t max_codes = 64;
  std::array<std::atomic<std::int64_t>, max_codes> rejected_{};
  std::array<std::atomic<std::int64_t>, static_cast<std::size_t>(refusal::count)> refused_{};
  std::array<std::atomic<std::int64_t>, latency_buckets.size() + 1> latency_{};
  std::atomic<std::int64_t> latency_count_{0};
  std::atomic<std::int64_t> latency_sum_ns_{0};
};

}  // namespace carcassonne::server
