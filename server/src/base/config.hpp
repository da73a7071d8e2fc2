// Server configuration: every limit is a named field here, set by a flag or its environment
// variable (flags win), documented by --help and docs/hosting.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace carcassonne::server {

struct config {
  std::string address = "0.0.0.0";            // CARCASSONNE_ADDRESS
  std::uint16_t port = 8080;                  // CARCASSONNE_PORT (0: any free port)
  int threads = 0;                            // CARCASSONNE_THREADS (0: one per core)
  std::string log_level = "info";             // CARCASSONNE_LOG_LEVEL
  std::size_t max_message_bytes = 16 * 1024;  // CARCASSONNE_MAX_MESSAGE: larger frames close
  std::size_t max_outbound_messages = 256;    // CARCASSONNE_MAX_OUTBOUND: queue cap per client
  std::size_t max_outbound_bytes = 4 << 20;   // CARCASSONNE_MAX_OUTBOUND_BYTES
  // Kernel send buffer per socket: a fixed size also stops Linux from growing it to megabytes
  // for a client that does not read (the outbound queue cap then applies soon).
  std::size_t socket_send_buffer = 256 * 1024;  // CARCASSONNE_SOCKET_SEND_BUFFER
  double message_rate = 20;                     // CARCASSONNE_MESSAGE_RATE: messages per second
  double message_burst = 40;                    // CARCASSONNE_MESSAGE_BURST
  int rate_strikes = 3;                 // CARCASSONNE_RATE_STRIKES: refusals before disconnect
  std::size_t max_rooms = 10000;        // CARCASSONNE_MAX_ROOMS
  std::size_t max_connections = 20000;  // CARCASSONNE_MAX_CONNECTIONS
  std::size_t max_spectators = 10000;   // CARCASSONNE_MAX_SPECTATORS per room
  // Per client address (docs/hosting.md "Limits per address"); exempt addresses skip them.
  std::size_t max_connections_per_address = 64;     // CARCASSONNE_MAX_CONNECTIONS_PER_ADDRESS
  double address_connection_rate = 5;               // CARCASSONNE_ADDRESS_CONNECTION_RATE /s
  double address_connection_burst = 20;             // CARCASSONNE_ADDRESS_CONNECTION_BURST
  double address_message_rate = 60;                 // CARCASSONNE_ADDRESS_MESSAGE_RATE /s, shared
  double address_message_burst = 120;               // CARCASSONNE_ADDRESS_MESSAGE_BURST
  double address_room_rate = 1;                     // CARCASSONNE_ADDRESS_ROOM_RATE: rooms /s
  double address_room_burst = 10;                   // CARCASSONNE_ADDRESS_ROOM_BURST
  std::size_t max_public_rooms_per_address = 20;    // CARCASSONNE_MAX_PUBLIC_ROOMS_PER_ADDRESS
  std::size_t max_public_rooms_per_connection = 5;  // CARCASSONNE_MAX_PUBLIC_ROOMS_PER_CONNECTION
  std::string exempt_addresses = "127.0.0.1,::1";   // CARCASSONNE_EXEMPT_ADDRESSES ("" = none)
  bool trust_forwarded_for = false;                 // CARCASSONNE_TRUST_FORWARDED_FOR
  int waiting_room_expiry_seconds = 900;            // CARCASSONNE_WAITING_ROOM_EXPIRY
  int idle_timeout_seconds = 300;                   // CARCASSONNE_IDLE_TIMEOUT: no frame, no pong
  int shutdown_grace_seconds = 3;                   // CARCASSONNE_SHUTDOWN_GRACE
  bool allow_scripted_rooms = false;  // CARCASSONNE_ALLOW_SCRIPTED: seed/script in create_room
  std::string data_dir = "data";      // CARCASSONNE_DATA_DIR: the database is carcassonne.db in it
  bool journal = true;            // CARCASSONNE_JOURNAL: store rooms and moves (off: memory only)
  bool journal_full_sync = true;  // CARCASSONNE_JOURNAL_SYNC: full (power loss) or normal (crash)
  // Bots: worker threads, so also the most searches running at once; each move's budget.
  int bot_threads = 1;      // CARCASSONNE_BOT_THREADS
  int bot_playouts = 2000;  // CARCASSONNE_BOT_PLAYOUTS: the strong bot's playouts per move
  int bot_think_ms = 1000;  // CARCASSONNE_BOT_THINK_MS: a search stops after this long
  // CARCASSONNE_BOT_PRIORITY: idle (the workers run only on a core nothing else wants) or normal
  bool bots_at_idle_priority = true;

  // A cluster (docs/scaling.md): the room directory in Redis, this instance's public WebSocket URL
  // and its id there (default: the host name and port).
  std::string redis_url;    // CARCASSONNE_REDIS: redis://host:port (empty: a single server)
  std::string public_url;   // CARCASSONNE_PUBLIC_URL: ws://host:port/ws as clients reach it
  std::string instance_id;  // CARCASSONNE_INSTANCE_ID
  // CARCASSONNE_LEASE_TTL_MS: heartbeats and leases expire after this; a dead instance's rooms
  // are adopted about this long after it died (0: the directory's default, 3 s).
  int lease_ttl_ms = 0;
  std::string store_url;  // CARCASSONNE_STORE: postgresql://... instead of the SQLite file
  std::string database_path() const { return data_dir + "/carcassonne.db"; }
  // The I/O threads that run the server: `threads`, or one per core when it is 0.
  int io_threads() const;
  // Where the store lives: the PostgreSQL URL when given, else the SQLite file.
  std::string store_location() const { return store_url.empty() ? database_path() : store_url; }
  std::string web_root;  // CARCASSONNE_WEB_ROOT: serve the page from disk (dev)

  // Accounts (docs/hosting.md "Accounts"); they live in the store's database (journal on).
  int session_days = 30;  // CARCASSONNE_SESSION_DAYS: a session's lifetime
  // Days a year a player may pause their correspondence clocks (docs/protocol.md §21 "Vacation").
  int vacation_days_per_year = 21;  // CARCASSONNE_VACATION_DAYS_PER_YEAR
  // Quick play, series and tournaments (docs/hosting.md "Competition").
  int competition_tick_ms = 500;        // the matchmaker's period, and the results' poll
  int competition_bot_pause_ms = 1000;  // the bots' pause in the rooms the server arranges
  bool require_account = false;  // CARCASSONNE_REQUIRE_ACCOUNT: join/create only when signed in
  // Origins besides the server's own (the request's Host) whose pages may use a player's cookie:
  // comma-separated, e.g. "https://play.example.org" (CARCASSONNE_ALLOWED_ORIGINS).
  std::string allowed_origins;
  // OpenID Connect sign-in, off while the issuer is empty.
  std::string oidc_issuer;         // CARCASSONNE_OIDC_ISSUER
  std::string oidc_client_id;      // CARCASSONNE_OIDC_CLIENT_ID
  std::string oidc_client_secret;  // CARCASSONNE_OIDC_CLIENT_SECRET
  std::string oidc_redirect_uri;   // CARCASSONNE_OIDC_REDIRECT_URI: https://HOST/auth/oidc/callback
  // Notifications (docs/hosting.md "Notifications"); with accounts. The VAPID key pair is the
  // file vapid.pem in the data directory.
  int notify_batch_s = 60;            // a player's notices wait this long for company
  int notify_max_attempts = 8;        // then a delivery is a dead letter
  bool notify_allow_private = false;  // webhooks and push endpoints at private addresses (tests)
  std::string smtp_url;               // smtp://[user:password@]host[:port] or smtps://; "" no mail
  std::string smtp_from;              // "Carcassonne <games@example.org>"
  std::string push_subject;           // VAPID's sub: mailto: or https:
  std::string vapid_path() const { return data_dir + "/vapid.pem"; }
};

// Parses flags (and environment variables, when `env` is true). On error or --help, returns
// nothing and fills `message` (help text or the error).
std::optional<config> parse_config(std::span<const std::string> args, bool env,
                                   std::string& message, bool& help);

std::string config_help();

}  // namespace carcassonne::server
