// Process-wide counters for /metrics (Prometheus text format). Lock-free: any thread updates.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace carcassonne::server {

class metrics {
 public:
  static constexpr std::array<double, 12> latency_buckets{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                          0.01,   0.025,   0.05,   0.1,   0.25,   1.0};
  std::atomic<std::int64_t> connections{0};
  std::atomic<std::int64_t> connections_total{0};
  std::atomic<std::int64_t> rooms{0};
  std::atomic<std::int64_t> games_started{0};
  std::atomic<std::int64_t> games_finished{0};
  std::atomic<std::int64_t> moves_accepted{0};
  std::atomic<std::int64_t> messages_in{0}, messages_out{0};
  std::atomic<std::int64_t> bytes_in{0}, bytes_out{0};
  std::atomic<std::int64_t> dropped_slow{0}, dropped_flood{0}, dropped_oversize{0};

  void rejected(std::string_view code);
  void observe_move_seconds(double seconds);
  std::string render() const;

 private:
  static constexpr std::array<std::string_view, 41> codes_{
      "bad_json",         "bad_message",      "unknown_type",        "malformed_move",
      "not_your_turn",    "unexpected_move",  "bad_rotation",        "square_not_open",
      "tile_does_not_fit", "wrong_tile",      "unknown_feature",     "feature_occupied",
      "feature_completed", "no_figure_available", "figure_not_allowed", "game_over",
      "stale_sequence",   "not_seated",       "not_started",         "no_such_room",
      "room_full",        "seat_taken",       "bad_token",           "not_creator",
      "already_started",  "too_few_players",  "rate_limited",        "already_in_room",
      "too_many_spectators", "server_full",   "bad_setup",           "not_in_room",
      "no_such_seat",     "wrong_seat",       "protocol_version",    "unknown_expansion",
      "unsupported_expansion", "unknown_option", "bad_option_value", "unknown_tile",
      "other"};
  std::array<std::atomic<std::int64_t>, codes_.size()> rejected_{};
  std::array<std::atomic<std::int64_t>, latency_buckets.size() + 1> latency_{};
  std::atomic<std::int64_t> latency_count_{0};
  std::atomic<std::int64_t> latency_sum_ns_{0};
};

}  // namespace carcassonne::server
