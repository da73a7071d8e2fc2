#include "base/config.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

namespace carcassonne::server {

namespace {

struct setting {
  const char* flag;
  const char* env;
  const char* help;
  std::function<bool(config&, const std::string&)> set;
};

template <class T>
bool parse_number(const std::string& text, T lo, T hi, T& out) {
  try {
    std::size_t used = 0;
    const long double v = std::stold(text, &used);
    if (used != text.size() || v < static_cast<long double>(lo) || v > static_cast<long double>(hi))
      return false;
    out = static_cast<T>(v);
    return true;
  } catch (...) {
    return false;
  }
}

bool parse_bool(const std::string& text, bool& out) {
  if (text == "1" || text == "true" || text == "yes") return out = true, true;
  if (text == "0" || text == "false" || text == "no") return out = false, true;
  return false;
}

const std::vector<setting>& settings() {
  static const std::vector<setting> list{
      {"--address", "CARCASSONNE_ADDRESS", "address to listen on (default 0.0.0.0)",
       [](config& c, const std::string& v) { return !v.empty() && (c.address = v, true); }},
      {"--port", "CARCASSONNE_PORT", "TCP port for HTTP and WebSocket (default 8080; 0 = any)",
       [](config& c, const std::string& v) {
         return parse_number<std::uint16_t>(v, 0, 65535, c.port);
       }},
      {"--threads", "CARCASSONNE_THREADS", "I/O threads (default 0 = one per core)",
       [](config& c, const std::string& v) { return parse_number(v, 0, 256, c.threads); }},
      {"--log-level", "CARCASSONNE_LOG_LEVEL",
       "trace, debug, info, warn, error, off (default info)",
       [](config& c, const std::string& v) {
         for (const char* l : {"trace", "debug", "info", "warn", "error", "off"})
           if (v == l) return c.log_level = v, true;
         return false;
       }},
      {"--max-message", "CARCASSONNE_MAX_MESSAGE",
       "largest incoming frame in bytes (default 16384)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 256, 1 << 24, c.max_message_bytes);
       }},
      {"--max-outbound", "CARCASSONNE_MAX_OUTBOUND",
       "frames queued for a client before it is dropped as too slow (default 256)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 4, 1 << 20, c.max_outbound_messages);
       }},
      {"--max-outbound-bytes", "CARCASSONNE_MAX_OUTBOUND_BYTES",
       "bytes queued for a client before it is dropped as too slow (default 4194304)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 4096, std::size_t{1} << 32, c.max_outbound_bytes);
       }},
      {"--socket-send-buffer", "CARCASSONNE_SOCKET_SEND_BUFFER",
       "kernel send buffer per connection in bytes (default 262144)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 4096, std::size_t{1} << 26, c.socket_send_buffer);
       }},
      {"--message-rate", "CARCASSONNE_MESSAGE_RATE",
       "messages per second per connection (default 20)",
       [](config& c, const std::string& v) { return parse_number(v, 0.1, 1e6, c.message_rate); }},
      {"--message-burst", "CARCASSONNE_MESSAGE_BURST", "burst allowance over the rate (default 40)",
       [](config& c, const std::string& v) { return parse_number(v, 1.0, 1e6, c.message_burst); }},
      {"--rate-strikes", "CARCASSONNE_RATE_STRIKES",
       "rate-limited messages before the connection is closed (default 3)",
       [](config& c, const std::string& v) { return parse_number(v, 1, 1000000, c.rate_strikes); }},
      {"--max-rooms", "CARCASSONNE_MAX_ROOMS", "rooms kept at once (default 10000)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 1, 10000000, c.max_rooms);
       }},
      {"--max-connections", "CARCASSONNE_MAX_CONNECTIONS",
       "open connections at once (default 20000)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 1, 10000000, c.max_connections);
       }},
      {"--max-spectators", "CARCASSONNE_MAX_SPECTATORS", "spectators per room (default 10000)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 0, 100000, c.max_spectators);
       }},
      {"--max-connections-per-address", "CARCASSONNE_MAX_CONNECTIONS_PER_ADDRESS",
       "open connections at once from one client address (default 64)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 1, 10000000, c.max_connections_per_address);
       }},
      {"--address-connection-rate", "CARCASSONNE_ADDRESS_CONNECTION_RATE",
       "new connections per second from one address (default 5)",
       [](config& c, const std::string& v) {
         return parse_number(v, 0.01, 1e6, c.address_connection_rate);
       }},
      {"--address-connection-burst", "CARCASSONNE_ADDRESS_CONNECTION_BURST",
       "burst of new connections from one address over that rate (default 20)",
       [](config& c, const std::string& v) {
         return parse_number(v, 1.0, 1e6, c.address_connection_burst);
       }},
      {"--address-message-rate", "CARCASSONNE_ADDRESS_MESSAGE_RATE",
       "messages per second from one address, all its connections together (default 60)",
       [](config& c, const std::string& v) {
         return parse_number(v, 0.1, 1e7, c.address_message_rate);
       }},
      {"--address-message-burst", "CARCASSONNE_ADDRESS_MESSAGE_BURST",
       "burst of messages from one address over that rate (default 120)",
       [](config& c, const std::string& v) {
         return parse_number(v, 1.0, 1e7, c.address_message_burst);
       }},
      {"--address-room-rate", "CARCASSONNE_ADDRESS_ROOM_RATE",
       "rooms created per second by one address (default 1)",
       [](config& c, const std::string& v) {
         return parse_number(v, 0.001, 1e6, c.address_room_rate);
       }},
      {"--address-room-burst", "CARCASSONNE_ADDRESS_ROOM_BURST",
       "burst of rooms created by one address over that rate (default 10)",
       [](config& c, const std::string& v) {
         return parse_number(v, 1.0, 1e6, c.address_room_burst);
       }},
      {"--max-public-rooms-per-address", "CARCASSONNE_MAX_PUBLIC_ROOMS_PER_ADDRESS",
       "public rooms waiting for their game that one address may hold (default 20)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 0, 10000000, c.max_public_rooms_per_address);
       }},
      {"--max-public-rooms-per-connection", "CARCASSONNE_MAX_PUBLIC_ROOMS_PER_CONNECTION",
       "public rooms waiting for their game that one connection may hold (default 5)",
       [](config& c, const std::string& v) {
         return parse_number<std::size_t>(v, 0, 10000000, c.max_public_rooms_per_connection);
       }},
      {"--exempt-addresses", "CARCASSONNE_EXEMPT_ADDRESSES",
       "comma-separated client addresses that skip the per-address limits, \"none\" for none "
       "(default 127.0.0.1,::1)",
       [](config& c, const std::string& v) {
         c.exempt_addresses = v == "none" ? std::string() : v;
         return true;
       }},
      {"--trust-forwarded-for", "CARCASSONNE_TRUST_FORWARDED_FOR",
       "behind a proxy at an exempt address: take the client's address from the last "
       "X-Forwarded-For entry (default false)",
       [](config& c, const std::string& v) { return parse_bool(v, c.trust_forwarded_for); }},
      {"--waiting-room-expiry", "CARCASSONNE_WAITING_ROOM_EXPIRY",
       "seconds a room waiting for its game is kept with nobody connected (default 900)",
       [](config& c, const std::string& v) {
         return parse_number(v, 1, 86400 * 30, c.waiting_room_expiry_seconds);
       }},
      {"--idle-timeout", "CARCASSONNE_IDLE_TIMEOUT",
       "seconds without any frame or pong before a connection is closed (default 300)",
       [](config& c, const std::string& v) {
         return parse_number(v, 5, 86400, c.idle_timeout_seconds);
       }},
      {"--shutdown-grace", "CARCASSONNE_SHUTDOWN_GRACE",
       "seconds given to clients to close on SIGTERM/SIGINT (default 3)",
       [](config& c, const std::string& v) {
         return parse_number(v, 0, 60, c.shutdown_grace_seconds);
       }},
      {"--allow-scripted", "CARCASSONNE_ALLOW_SCRIPTED",
       "accept setup.seed and setup.script in create_room: for tests only (default false)",
       [](config& c, const std::string& v) { return parse_bool(v, c.allow_scripted_rooms); }},
      {"--data-dir", "CARCASSONNE_DATA_DIR",
       "directory of the database carcassonne.db, created if missing (default data)",
       [](config& c, const std::string& v) { return !v.empty() && (c.data_dir = v, true); }},
      {"--store", "CARCASSONNE_STORE",
       "keep rooms in PostgreSQL instead of the SQLite file: postgresql://user:pass@host/db "
       "(docs/scaling.md)",
       [](config& c, const std::string& v) {
         return (v.starts_with("postgresql://") || v.starts_with("postgres://")) &&
                (c.store_url = v, true);
       }},
      {"--session-days", "CARCASSONNE_SESSION_DAYS",
       "days a player's session lasts before signing in again (default 30)",
       [](config& c, const std::string& v) { return parse_number(v, 1, 3650, c.session_days); }},
      {"--vacation-days-per-year", "CARCASSONNE_VACATION_DAYS_PER_YEAR",
       "days a year a player may pause their correspondence clocks, 0-366 (default 21)",
       [](config& c, const std::string& v) {
         return parse_number(v, 0, 366, c.vacation_days_per_year);
       }},
      {"--competition-tick-ms", "CARCASSONNE_COMPETITION_TICK_MS",
       "how often the matchmaker runs and game results are looked for, ms (default 500)",
       [](config& c, const std::string& v) {
         return parse_number(v, 20, 10000, c.competition_tick_ms);
       }},
      {"--competition-bot-pause-ms", "CARCASSONNE_COMPETITION_BOT_PAUSE_MS",
       "the bots' pause before each move in quick play and tournament games, ms (default 1000)",
       [](config& c, const std::string& v) {
         return parse_number(v, 0, 10000, c.competition_bot_pause_ms);
       }},
      {"--require-account", "CARCASSONNE_REQUIRE_ACCOUNT",
       "join and create_room only for connections signed in as a player (default false)",
       [](config& c, const std::string& v) { return parse_bool(v, c.require_account); }},
      {"--allowed-origins", "CARCASSONNE_ALLOWED_ORIGINS",
       "origins besides the server's own whose pages may act with a player's cookie, "
       "comma-separated (default none)",
       [](config& c, const std::string& v) { return c.allowed_origins = v, true; }},
      {"--oidc-issuer", "CARCASSONNE_OIDC_ISSUER",
       "OpenID Connect sign-in with this provider (https://...; default off)",
       [](config& c, const std::string& v) {
         return (v.starts_with("https://") || v.starts_with("http://")) &&
                (c.oidc_issuer = v, true);
       }},
      {"--oidc-client-id", "CARCASSONNE_OIDC_CLIENT_ID", "the client id the provider gave",
       [](config& c, const std::string& v) { return !v.empty() && (c.oidc_client_id = v, true); }},
      {"--oidc-client-secret", "CARCASSONNE_OIDC_CLIENT_SECRET",
       "the client secret the provider gave (none for a public client)",
       [](config& c, const std::string& v) { return c.oidc_client_secret = v, true; }},
      {"--oidc-redirect-uri", "CARCASSONNE_OIDC_REDIRECT_URI",
       "this server's callback as registered with the provider: https://HOST/auth/oidc/callback",
       [](config& c, const std::string& v) {
         return (v.starts_with("https://") || v.starts_with("http://")) &&
                (c.oidc_redirect_uri = v, true);
       }},
      {"--notify-batch-s", "CARCASSONNE_NOTIFY_BATCH_S",
       "seconds a player's first pending notification waits for others, to go as one message "
       "(default 60)",
       [](config& c, const std::string& v) { return parse_number(v, 0, 86400, c.notify_batch_s); }},
      {"--notify-max-attempts", "CARCASSONNE_NOTIFY_MAX_ATTEMPTS",
       "attempts of a notification before it is a dead letter (default 8)",
       [](config& c, const std::string& v) {
         return parse_number(v, 1, 100, c.notify_max_attempts);
       }},
      {"--notify-allow-private", "CARCASSONNE_NOTIFY_ALLOW_PRIVATE",
       "webhooks and push endpoints may be at private and loopback addresses (default false: "
       "tests only)",
       [](config& c, const std::string& v) { return parse_bool(v, c.notify_allow_private); }},
      {"--smtp", "CARCASSONNE_SMTP",
       "the SMTP relay for notification mails: smtp://[user:password@]host[:port] or smtps://... "
       "(default none: no mail)",
       [](config& c, const std::string& v) {
         return (v.starts_with("smtp://") || v.starts_with("smtps://")) && (c.smtp_url = v, true);
       }},
      {"--smtp-from", "CARCASSONNE_SMTP_FROM",
       "the sender of notification mails, e.g. \"Carcassonne <games@example.org>\"",
       [](config& c, const std::string& v) { return !v.empty() && (c.smtp_from = v, true); }},
      {"--push-subject", "CARCASSONNE_PUSH_SUBJECT",
       "the contact push services see (VAPID subject): mailto:... or https://...",
       [](config& c, const std::string& v) {
         return (v.starts_with("mailto:") || v.starts_with("https://")) &&
                (c.push_subject = v, true);
       }},
      {"--redis", "CARCASSONNE_REDIS",
       "join a cluster: the room directory in Redis at redis://host:port (docs/scaling.md)",
       [](config& c, const std::string& v) {
         return v.starts_with("redis://") && (c.redis_url = v, true);
       }},
      {"--public-url", "CARCASSONNE_PUBLIC_URL",
       "this instance's WebSocket URL as clients reach it, in a cluster (default "
       "ws://ADDRESS:PORT/ws)",
       [](config& c, const std::string& v) {
         return (v.starts_with("ws://") || v.starts_with("wss://")) && (c.public_url = v, true);
       }},
      {"--instance-id", "CARCASSONNE_INSTANCE_ID",
       "this instance's name in the cluster: letters, digits, - _ . (default host-PORT)",
       [](config& c, const std::string& v) {
         const bool ok = !v.empty() && v.size() <= 64 &&
                         v.find_first_not_of(
                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789-_.") == std::string::npos;
         return ok && (c.instance_id = v, true);
       }},
      {"--lease-ttl-ms", "CARCASSONNE_LEASE_TTL_MS",
       "in a cluster, milliseconds after which a silent instance's rooms are adopted by others "
       "(default 3000)",
       [](config& c, const std::string& v) { return parse_number(v, 300, 60000, c.lease_ttl_ms); }},
      {"--journal", "CARCASSONNE_JOURNAL",
       "store every room and accepted move, rebuilt on start: on or off (default on)",
       [](config& c, const std::string& v) {
         if (v == "on" || v == "off") return c.journal = v == "on", true;
         return parse_bool(v, c.journal);
       }},
      {"--journal-sync", "CARCASSONNE_JOURNAL_SYNC",
       "full: a commit survives power loss; normal: it survives a crash of the server (default "
       "full)",
       [](config& c, const std::string& v) {
         if (v != "full" && v != "normal") return false;
         return c.journal_full_sync = v == "full", true;
       }},
      {"--bot-threads", "CARCASSONNE_BOT_THREADS",
       "bot worker threads: at most this many bot searches run at once (default 1)",
       [](config& c, const std::string& v) { return parse_number(v, 1, 256, c.bot_threads); }},
      {"--bot-playouts", "CARCASSONNE_BOT_PLAYOUTS",
       "games a strong bot simulates per move at most (default 2000)",
       [](config& c, const std::string& v) {
         return parse_number(v, 1, 10000000, c.bot_playouts);
       }},
      {"--bot-think-ms", "CARCASSONNE_BOT_THINK_MS",
       "milliseconds after which a bot's search stops and plays its best move (default 1000)",
       [](config& c, const std::string& v) { return parse_number(v, 1, 600000, c.bot_think_ms); }},
      {"--bot-priority", "CARCASSONNE_BOT_PRIORITY",
       "idle: bots think only on a core nothing else wants; normal: an ordinary thread's share "
       "(default idle)",
       [](config& c, const std::string& v) {
         if (v != "idle" && v != "normal") return false;
         return c.bots_at_idle_priority = v == "idle", true;
       }},
      {"--web-root", "CARCASSONNE_WEB_ROOT",
       "serve the web page from this folder (server/web) instead of the copy built in: for "
       "development",
       [](config& c, const std::string& v) { return !v.empty() && (c.web_root = v, true); }},
  };
  return list;
}

}  // namespace

std::string config_help() {
  std::string h =
      "usage: carcassonne serve [OPTIONS]\n\n"
      "Serves the game over WebSocket (/ws) and HTTP (/healthz, /metrics, /api/rooms,\n"
      "/api/rooms/ID/record) on one port. Every option can also be set by its environment "
      "variable; a flag wins.\n"
      "Rooms and moves are stored in DATA_DIR/carcassonne.db and rebuilt on start.\n\n";
  for (const auto& s : settings()) {
    h += "  " + std::string(s.flag) + " VALUE";
    h += std::string(std::max<int>(1, 24 - static_cast<int>(std::string(s.flag).size())), ' ');
    h += std::string(s.env) + "\n      " + s.help + "\n";
  }
  h += "  --help\n      this text\n";
  return h;
}

std::optional<config> parse_config(std::span<const std::string> args, bool env,
                                   std::string& message, bool& help) {
  config c;
  help = false;
  if (env) {
    for (const auto& s : settings()) {
      if (const char* v = std::getenv(s.env); v && *v && !s.set(c, v)) {
        message = std::string("invalid ") + s.env + "='" + v + "'";
        return std::nullopt;
      }
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      help = true;
      message = config_help();
      return std::nullopt;
    }
    std::string flag = args[i], value;
    if (auto eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      message = "missing value for " + flag;
      return std::nullopt;
    }
    const setting* found = nullptr;
    for (const auto& s : settings())
      if (flag == s.flag) found = &s;
    if (!found) {
      message = "unknown option " + flag + " (see --help)";
      return std::nullopt;
    }
    if (!found->set(c, value)) {
      message = "invalid value for " + flag + ": '" + value + "'";
      return std::nullopt;
    }
  }
  return c;
}

int config::io_threads() const {
  if (threads > 0) return threads;
  static const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return cores;
}

}  // namespace carcassonne::server
