#include "base/metrics.hpp"

#include <algorithm>
#include <sstream>

#include "carcassonne/engine/errors.hpp"

namespace carcassonne::server {

const std::vector<std::string>& metrics::codes() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> l;
    for (int c = 0; c < error_code_count; ++c)
      l.emplace_back(code_name(static_cast<error_code>(c)));
    for (const char* c : {"bad_json",
                          "bad_message",
                          "unknown_type",
                          "protocol_version",
                          "bad_record",
                          "malformed_move",
                          "stale_sequence",
                          "wrong_seat",
                          "not_seated",
                          "not_started",
                          "not_in_room",
                          "already_in_room",
                          "no_such_room",
                          "no_such_seat",
                          "room_full",
                          "seat_taken",
                          "bad_token",
                          "not_creator",
                          "already_started",
                          "too_few_players",
                          "too_many_spectators",
                          "server_full",
                          "bad_setup",
                          "rate_limited",
                          "storage_failed",
                          "not_finished",
                          "not_your_seat",
                          "not_a_bot",
                          "too_many_rooms",
                          "bad_request",
                          "room_unavailable",
                          "other"})
      l.emplace_back(c);
    return l;
  }();
  return list;
}

void metrics::rejected(std::string_view code) {
  const auto& list = codes();
  std::size_t i = 0;
  while (i + 1 < list.size() && list[i] != code) ++i;
  rejected_[std::min(i, max_codes - 1)].fetch_add(1, std::memory_order_relaxed);
}

void metrics::observe_move_seconds(double seconds) {
  std::size_t b = 0;
  while (b < latency_buckets.size() && seconds > latency_buckets[b]) ++b;
  latency_[b].fetch_add(1, std::memory_order_relaxed);
  latency_count_.fetch_add(1, std::memory_order_relaxed);
  latency_sum_ns_.fetch_add(static_cast<std::int64_t>(seconds * 1e9), std::memory_order_relaxed);
}

void metrics::render_bot_metrics(std::ostream& o) const {
  auto line = [&](const char* name, const char* help, const char* type, auto v) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
      << name << ' ' << v << '\n';
  };
  line("carcassonne_bot_moves_total", "Moves played by bots (bot seats and takeovers).", "counter",
       bot_moves.load());
  line("carcassonne_bot_think_seconds_total", "Time bots spent searching.", "counter",
       static_cast<double>(bot_think_ns.load()) / 1e9);
  line("carcassonne_bot_playouts_total", "Games simulated by bot searches.", "counter",
       bot_playouts.load());
  line("carcassonne_bot_results_dropped_total",
       "Bot moves computed for a position that had changed meanwhile.", "counter",
       bot_results_dropped.load());
  line("carcassonne_bot_takeovers_total", "Times a bot began playing for an absent player.",
       "counter", bot_takeovers.load());
  line("carcassonne_bot_searches_running", "Bot searches running now.", "gauge",
       bot_searches_running.load());
  line("carcassonne_bot_searches_queued", "Bot searches waiting for a worker.", "gauge",
       bot_searches_queued.load());
}

std::string metrics::render() const {
  std::ostringstream o;
  auto gauge = [&](const char* name, const char* help, const char* type, std::int64_t v) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
      << name << ' ' << v << '\n';
  };
  gauge("carcassonne_connections", "Open WebSocket connections.", "gauge", connections.load());
  gauge("carcassonne_connections_total", "WebSocket connections accepted.", "counter",
        connections_total.load());
  gauge("carcassonne_rooms", "Rooms held by the server.", "gauge", rooms.load());
  gauge("carcassonne_games_started_total", "Games started.", "counter", games_started.load());
  gauge("carcassonne_games_finished_total", "Games played to the end.", "counter",
        games_finished.load());
  gauge("carcassonne_moves_accepted_total", "Moves accepted.", "counter", moves_accepted.load());
  gauge("carcassonne_messages_in_total", "Messages received.", "counter", messages_in.load());
  gauge("carcassonne_messages_out_total", "Messages sent.", "counter", messages_out.load());
  gauge("carcassonne_socket_writes_total",
        "WebSocket writes: each sends the frames queued on a connection (up to 24) at once.",
        "counter", socket_writes.load());
  gauge("carcassonne_bytes_in_total", "Bytes received in messages.", "counter", bytes_in.load());
  gauge("carcassonne_bytes_out_total", "Bytes sent in messages.", "counter", bytes_out.load());
  o << "# HELP carcassonne_dropped_total Connections closed for breaking a limit.\n"
       "# TYPE carcassonne_dropped_total counter\n"
    << "carcassonne_dropped_total{reason=\"slow_reader\"} " << dropped_slow.load() << '\n'
    << "carcassonne_dropped_total{reason=\"flood\"} " << dropped_flood.load() << '\n'
    << "carcassonne_dropped_total{reason=\"oversize\"} " << dropped_oversize.load() << '\n';
  o << "# HELP carcassonne_refused_total Connections, messages and rooms refused by a limit.\n"
       "# TYPE carcassonne_refused_total counter\n";
  static constexpr const char* refusal_names[] = {"server_connections",
                                                  "address_connections",
                                                  "address_connection_rate",
                                                  "address_flood",
                                                  "address_messages",
                                                  "address_rooms",
                                                  "public_rooms",
                                                  "bad_http"};
  static_assert(std::size(refusal_names) == static_cast<std::size_t>(refusal::count));
  for (std::size_t i = 0; i < std::size(refusal_names); ++i)
    o << "carcassonne_refused_total{reason=\"" << refusal_names[i] << "\"} " << refused_[i].load()
      << '\n';
  o << "# HELP carcassonne_requests_rejected_total Requests and moves refused, by error code.\n"
       "# TYPE carcassonne_requests_rejected_total counter\n";
  for (std::size_t i = 0; i < codes().size() && i < max_codes; ++i)
    o << "carcassonne_requests_rejected_total{code=\"" << codes()[i] << "\"} "
      << rejected_[i].load() << '\n';
  o << "# HELP carcassonne_move_seconds Time from receiving a move to queueing its last "
       "broadcast.\n"
       "# TYPE carcassonne_move_seconds histogram\n";
  std::int64_t cumulative = 0;
  for (std::size_t b = 0; b < latency_buckets.size(); ++b) {
    cumulative += latency_[b].load();
    o << "carcassonne_move_seconds_bucket{le=\"" << latency_buckets[b] << "\"} " << cumulative
      << '\n';
  }
  cumulative += latency_[latency_buckets.size()].load();
  o << "carcassonne_move_seconds_bucket{le=\"+Inf\"} " << cumulative << '\n'
    << "carcassonne_move_seconds_sum " << static_cast<double>(latency_sum_ns_.load()) / 1e9 << '\n'
    << "carcassonne_move_seconds_count " << latency_count_.load() << '\n';
  render_bot_metrics(o);
  return o.str();
}

}  // namespace carcassonne::server
