#include "transport/server.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <array>
#include <limits>
#include <ostream>
#include <thread>
#include <vector>

#include "base/allocator.hpp"
#include "base/crypto.hpp"
#include "cluster/cluster_adoption.hpp"
#include "cluster/seek_queue_redis.hpp"
#include "notify/real_senders.hpp"
#include "store/store_sqlite.hpp"
#include "transport/net.hpp"

namespace carcassonne::server {

struct server::impl {
  explicit impl(config c)
      : state(std::make_shared<shared_state>(io, std::move(c))),
        acceptor(net::make_strand(io)),
        signals(io) {}

  void accept() {
    acceptor.async_accept(connection_executor(), [this](beast::error_code ec, tcp::socket socket) {
      on_accept(ec, std::move(socket));
    });
  }

  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec) {
      if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
      spdlog::warn("accept failed: {}", ec.message());
    } else {
      state->stats.accept_wakeups.fetch_add(1, std::memory_order_relaxed);
      take(std::move(socket));
      take_waiting();
    }
    accept();
  }

  // The connections already waiting, up to a batch, without going back to the run queue: under
  // load a pass through it is long, and one connection a pass left thousands waiting for tens of
  // seconds (docs/performance.md, "What makes it fast"). The acceptor is non-blocking: an empty
  // backlog ends the batch at once, and an error is left to the next asynchronous accept to report.
  // All of it runs on the acceptor's strand, where stop() closes it.
  void take_waiting() {
    for (int i = 0; i < accept_batch; ++i) {
      beast::error_code ec;
      tcp::socket socket = acceptor.accept(connection_executor(), ec);
      if (ec) return;
      take(std::move(socket));
    }
  }

  // Where a new connection's handlers run (a strand when there are several I/O threads).
  net::any_io_executor connection_executor() {
    return serial_executor(io.get_executor(), state->cfg);
  }

  void take(tcp::socket socket) {
    // Frames are small and often come in pairs (an answer, then a patch): without this,
    // Nagle's algorithm holds the second one until the peer's delayed ACK (~40 ms).
    beast::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    socket.set_option(
        net::socket_base::send_buffer_size(static_cast<int>(state->cfg.socket_send_buffer)),
        ignored);
    state->stats.accepted.fetch_add(1, std::memory_order_relaxed);
    if (auto peer = socket.remote_endpoint(ignored);
        !ignored && state->limits.shunned(peer.address().to_string()))
      return turn_away(std::move(socket));
    start_http_session(std::move(socket), state);
  }

  // A connection from a flooding address (address_limits::shunned): the 429 its HTTP request
  // would get, written at once, without reading the request through the HTTP machinery. What
  // has already arrived of it is read and dropped first, so that the close does not reset the
  // connection over the answer.
  void turn_away(tcp::socket socket) {
    state->stats.refused(metrics::refusal::address_flood);
    static constexpr std::string_view answer =
        "HTTP/1.1 429 Too Many Requests\r\nServer: carcassonne\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n"
        "Retry-After: 1\r\nConnection: close\r\nContent-Length: 57\r\n\r\n"
        "connecting too fast from your address: retry in a second\n";
    beast::error_code ignored;
    socket.non_blocking(true, ignored);
    std::array<char, 4096> arrived;
    for (int i = 0; i < 4 && socket.read_some(net::buffer(arrived), ignored) == arrived.size();
         ++i) {
    }
    socket.write_some(net::buffer(answer), ignored);
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }

  static constexpr int accept_batch = 64;

  // Keep-alive pings and timeouts of every connection (websocket_session.cpp), checked in one
  // sweep instead of a timer per connection.
  void sweep() {
    sweeper.expires_after(sweep_period(state->cfg));
    sweeper.async_wait([this](beast::error_code ec) {
      if (ec) return;
      sweep_sessions(*state);
      sweep_streams(*state);
      sweep();
    });
  }

  void stop() {
    net::post(io, [this] {
      if (state->draining.exchange(true)) return;
      spdlog::info("shutting down: closing {} connections", state->stats.connections.load());
      beast::error_code ignored;
      // On the acceptor's strand: with several I/O threads take_waiting may be accepting.
      net::post(acceptor.get_executor(), [this] {
        beast::error_code ignored_too;
        acceptor.close(ignored_too);
      });
      signals.cancel(ignored);
      close_all_sessions(*state);
      close_all_streams(*state);
      grace = std::make_unique<net::steady_timer>(
          io, std::chrono::seconds(state->cfg.shutdown_grace_seconds));
      grace->async_wait([this](beast::error_code ec) {
        if (!ec) io.stop();
      });
      // Stop as soon as every connection is gone, without waiting for the whole grace period.
      poll_empty();
    });
  }

  void poll_empty() {
    auto t = std::make_shared<net::steady_timer>(io, std::chrono::milliseconds(20));
    t->async_wait([this, t](beast::error_code) {
      if (state->stats.connections.load() == 0) {
        io.stop();
        return;
      }
      poll_empty();
    });
  }

  net::io_context io;
  std::shared_ptr<shared_state> state;
  tcp::acceptor acceptor;
  net::signal_set signals;
  net::steady_timer sweeper{io};
  std::unique_ptr<net::steady_timer> grace;
};

server::server(config c) : impl_(std::make_unique<impl>(std::move(c))) {}

server::~server() {
  if (impl_->state->db) impl_->state->db->on_notices(nullptr);
  impl_->state->notify_worker.reset();                       // a round under way ends first
  impl_->state->competitions.reset();                        // no more rooms arranged, nobody told
  impl_->state->lobby_view.reset();                          // nothing published any more
  if (impl_->state->cluster) impl_->state->cluster->stop();  // no more heartbeats or adoptions
  impl_->state->rooms.stop_bots();  // no search reaches a room or the I/O context after this
  // The clocks as they are now: a restart gives nobody back the time since the last move.
  impl_->state->rooms.save_clocks();
  // Commit what is queued while the rooms its callbacks reach still exist.
  if (impl_->state->db) impl_->state->db->flush();
  // Everything is stored: the leases are given up (the unfinished rooms are adopted at the
  // other instances' next heartbeat), and then the relay stops, telling the watchers of each
  // finished room relayed from here to spectate it again: they find it unleased.
  if (impl_->state->cluster) impl_->state->cluster->leave();
  impl_->state->relay.reset();  // nothing relayed, no room told of an audience
  impl_->state->cluster.reset();
  // Rooms hold their connections and connections hold the shared state (and so the rooms):
  // connections that did not close within the grace period would keep that cycle alive.
  impl_->state->rooms.clear();
}

bool server::open_store(std::string& error) {
  auto& st = *impl_->state;
  if (!st.cfg.journal || st.db) return true;
  st.db = store::open({st.cfg.store_location(), st.cfg.journal_full_sync}, error);
  if (!st.db) return false;
  st.db->wake_through(
      [ex = impl_->io.get_executor()](std::function<void()> f) { net::post(ex, std::move(f)); });
  st.rooms.attach_store(st.db.get());
  if (!open_accounts(error)) return false;
  // A cluster on one PostgreSQL: the rooms in it are other instances' too; this one rebuilds
  // only those nobody leases, as it adopts them (join_cluster, docs/scaling.md "Failover").
  if (fails_over()) return true;
  return st.rooms.restore(error);
}

// Accounts live in the store's database (docs/hosting.md "Accounts").
bool server::open_accounts(std::string& error) {
  auto& st = *impl_->state;
  auto players = player_store::open(st.cfg.store_location(), error);
  if (!players) return error = "cannot open the accounts' tables: " + error, false;
  account_settings settings;
  settings.session_lifetime = std::chrono::hours(24) * st.cfg.session_days;
  settings.vacation_days_per_year = st.cfg.vacation_days_per_year;
  st.players = std::make_unique<accounts>(std::move(players), std::move(settings));
  // Rooms ask whether a player is on vacation on the accounts' workers (docs/protocol.md §21).
  st.rooms.set_vacation_lookup(
      [s = impl_->state.get()](const std::string& player, lobby::vacation_reply done) {
        s->players->post([s, player, done = std::move(done)] {
          std::string why;
          const auto until = s->players->vacation_until(player, why);
          if (!until) spdlog::warn("vacation of {}: cannot be read now: {}", player, why);
          done(until.value_or(0), until.has_value());
        });
      });
  if (!st.players->ensure_bot_accounts(error))
    return error = "cannot make the bots' accounts: " + error, false;
  if (!start_notifications(error)) return false;
  if (st.cfg.oidc_issuer.empty()) return true;
  if (st.cfg.oidc_client_id.empty() || st.cfg.oidc_redirect_uri.empty())
    return error = "--oidc-issuer needs --oidc-client-id and --oidc-redirect-uri", false;
  oidc::settings settings_oidc{st.cfg.oidc_issuer, st.cfg.oidc_client_id, st.cfg.oidc_client_secret,
                               st.cfg.oidc_redirect_uri};
  if (auto bad = oidc::check_settings(settings_oidc))
    return error = "OpenID Connect settings: " + bad->message, false;
  st.oidc = std::make_unique<oidc::client>(std::move(settings_oidc));
  return true;
}

namespace {

// The page's origin for links in mails and webhooks, from the WebSocket URL clients reach
// (ws://host:port/ws -> http://host:port); "" when not set (links relative to the page).
std::string page_origin(const std::string& ws_url) {
  const auto scheme = ws_url.find("://");
  if (scheme == std::string::npos) return {};
  const auto path = ws_url.find('/', scheme + 3);
  const std::string http = ws_url.starts_with("wss://") ? "https" : "http";
  return http +
         ws_url.substr(scheme, path == std::string::npos ? std::string::npos : path - scheme);
}

}  // namespace

// Notifications (docs/hosting.md "Notifications"): with accounts, in the store's database; the
// worker runs on its own thread from the start.
bool server::start_notifications(std::string& error) {
  auto& st = *impl_->state;
  auto channels = notify::make_real_channels(st.cfg, error);
  if (!channels) return error = "notifications: " + error, false;
  auto db = notify::notify_store::open(st.cfg.store_location(), error);
  if (!db) return error = "cannot open the notifications' tables: " + error, false;
  const auto secret = db->secret("unsubscribe", error);
  if (!secret) return error = "notifications: the server's secret: " + error, false;
  notify::service_settings settings;
  settings.vapid_public_key = channels->vapid_public_key;
  settings.email_available = channels->email_available;
  settings.url_check = channels->url_check;
  st.notifications = std::make_unique<notify::service>(std::move(db), std::move(settings), *secret);
  notify::worker_options o;
  o.batch_ms = std::int64_t{st.cfg.notify_batch_s} * 1000;
  o.max_attempts = st.cfg.notify_max_attempts;
  o.instance = st.cfg.instance_id.empty() ? "i-" + random_hex(8) : st.cfg.instance_id;
  o.page_url = page_origin(st.cfg.public_url);
  // An -shm file cut under the server is given its size back before the worker reads through it
  // (store_sqlite.hpp), as before the store's own reads.
  if (auto* sqlite = dynamic_cast<sqlite_store*>(st.db.get()))
    o.before_round = [sqlite] { sqlite->keep_shm_whole(); };
  auto* service = st.notifications.get();
  o.unsubscribe_token = [service](const std::string& player, const std::string& channel,
                                  const std::string& kind, const std::string& subscription) {
    return service->token(player, channel, kind, subscription);
  };
  st.notify_worker =
      std::make_unique<notify::worker>(service->store(), std::move(channels->send), std::move(o));
  st.notify_worker->start();
  // Without a batch window a notice goes out at once: its commit wakes the worker.
  if (st.cfg.notify_batch_s == 0 && st.db)
    st.db->on_notices([w = st.notify_worker.get()] { w->wake(); });
  return true;
}

bool server::fails_over() const {
  const auto& c = impl_->state->cfg;
  return c.journal && !c.redis_url.empty() && is_postgres_url(c.store_location());
}

bool server::listen(std::string& error) {
  if (!open_store(error)) return false;
  beast::error_code ec;
  const auto address = net::ip::make_address(impl_->state->cfg.address, ec);
  if (ec) return error = "bad address '" + impl_->state->cfg.address + "'", false;
  const tcp::endpoint endpoint{address, impl_->state->cfg.port};
  auto& a = impl_->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(endpoint, ec);
  // The queue of connections the kernel has completed and we have not accepted yet: as long as
  // the kernel allows (net.core.somaxconn; it takes the smaller). Asio's default, SOMAXCONN
  // (4096), would keep it at 4096 on a host whose operator raised the sysctl for a crowd: a
  // connection beyond a full queue has its SYN dropped and retried a second later.
  if (!ec) a.listen(std::numeric_limits<int>::max(), ec);
  if (!ec) a.non_blocking(true, ec);  // take_waiting's accepts return at once on an empty backlog
  if (ec)
    return error = "cannot listen on " + impl_->state->cfg.address + ":" +
                   std::to_string(impl_->state->cfg.port) + ": " + ec.message(),
           false;
  impl_->accept();
  impl_->sweep();
  join_cluster();
  return start_competitions(error);
}

// Quick play, series and tournaments (docs/hosting.md "Competition"): with accounts, in the
// store's database; one queue for the cluster on its Redis.
bool server::start_competitions(std::string& error) {
  auto& st = *impl_->state;
  if (!st.players || st.competitions) return true;
  auto db = competition::competition_store::open(st.cfg.store_location(), error);
  if (!db) return error = "cannot open the competitions' tables: " + error, false;
  std::unique_ptr<competition::seek_queue> queue;
  if (st.cluster) {
    const auto ttl =
        std::chrono::milliseconds(st.cfg.lease_ttl_ms > 0 ? st.cfg.lease_ttl_ms : 3000);
    queue = make_redis_seek_queue(st.cfg.redis_url, st.cluster->instance_id(), ttl, error);
    if (!queue) return error = "quick play's queue: " + error, false;
  } else {
    queue = competition::make_memory_seek_queue();
  }
  competition::service_settings settings;
  settings.tick = std::chrono::milliseconds(st.cfg.competition_tick_ms);
  settings.bot_pause_ms = st.cfg.competition_bot_pause_ms;
  // The bots quick play may seat, at their rating in duels (a level that never played a rated
  // game starts where the docs say: the ladder's where docs/bots.md "The ladder" measured it).
  for (const auto& [level, start] : {std::pair<const char*, double>{"random", 800.0},
                                     {"greedy", 1200.0},
                                     {"strong", 1500.0},
                                     {"beginner", 1250.0},
                                     {"casual", 1400.0},
                                     {"intermediate", 1560.0},
                                     {"advanced", 1690.0},
                                     {"expert", 1820.0}}) {
    double r = start;
    std::string why;
    if (auto rows = st.players->store().ratings_of(std::string("bot-") + level, why))
      for (const auto& row : *rows)
        if (row.pool == "duel" && row.games > 0) r = row.value.r;
    settings.bots.push_back({level, r});
  }
  competition::service_hooks hooks;
  hooks.tell = [s = impl_->state.get()](const std::string& player, const std::string& frame) {
    tell_player(*s, player, frame);
  };
  if (st.cluster) {
    // One runner for each series and tournament in the cluster: the holder of its lease.
    hooks.instance = st.cluster->instance_id();
    hooks.live_instances = [s = impl_->state.get()] { return s->cluster->live_instances(); };
    hooks.claim = [s = impl_->state.get()](const std::string& id) { return s->cluster->claim(id); };
  }
  st.competitions = std::make_unique<competition::competitions>(
      st.rooms, *st.players, std::move(db), std::move(queue), std::move(settings),
      std::move(hooks));
  st.competitions->start();
  return true;
}

// With --redis: registered in the room directory under the port actually bound.
void server::join_cluster() {
  auto& st = *impl_->state;
  if (st.cfg.redis_url.empty() || st.cluster) return;
  char host[256] = "localhost";
  ::gethostname(host, sizeof host - 1);
  const auto bound = std::to_string(port());
  room_directory::options o;
  o.redis_url = st.cfg.redis_url;
  o.instance_id = st.cfg.instance_id.empty() ? std::string(host) + "-" + bound : st.cfg.instance_id;
  o.public_url = st.cfg.public_url.empty() ? "ws://" + std::string(host) + ":" + bound + "/ws"
                                           : st.cfg.public_url;
  if (st.cfg.lease_ttl_ms > 0) o.ttl = std::chrono::milliseconds(st.cfg.lease_ttl_ms);
  std::string error;
  spectator_relay::options relayed{st.cfg.redis_url, o.instance_id, st.cfg.max_spectators};
  // Spectators waiting for a snapshot are let go only well past a failover (the lease's TTL, then
  // an adoption at a heartbeat).
  relayed.give_up = 3 * o.ttl + std::chrono::seconds(1);
  st.relay = spectator_relay::open(relayed, st.rooms, error);
  if (!st.relay) spdlog::warn("spectator relay: {}", error);
  const auto load = [s = impl_->state.get()] { return static_cast<std::int64_t>(s->rooms.size()); };
  // A room gone from memory for good gives its lease up: no instance sends spectators or players
  // here for it any more (a finished one is served from the store by whichever instance is asked).
  st.rooms.set_releaser([s = impl_->state.get()](const std::string& room) {
    if (s->cluster) s->cluster->release(room);
  });
  if (!fails_over()) {
    st.cluster = std::make_unique<cluster_member>(o, load);
    st.lobby_view = std::make_unique<cluster_lobby>(o, st.rooms);
    return;
  }
  cluster_member::failover_hooks hooks;
  hooks.lost = [s = impl_->state.get()](const std::string& room) { s->rooms.lease_lost(room); };
  hooks.after_beat = [s = impl_->state.get(), budget = o.ttl / 3](room_directory& d) {
    adopt_orphan_rooms(d, *s->db, s->rooms, budget);
  };
  hooks.claimed = [s = impl_->state.get()](const std::string& room, std::uint64_t generation) {
    if (auto e = s->rooms.find(room)) e->game_room->set_lease_generation(generation);
  };
  st.cluster = std::make_unique<cluster_member>(o, load, std::move(hooks));
  st.lobby_view = std::make_unique<cluster_lobby>(o, st.rooms);
  st.rooms.set_claimer([s = impl_->state.get()](const std::string& room) {
    if (s->cluster) s->cluster->claim(room);
  });
}

std::uint16_t server::port() const {
  return impl_->acceptor.local_endpoint().port();
}

void server::run() {
  const int n = impl_->state->cfg.io_threads();
  std::vector<std::thread> threads;
  for (int i = 1; i < n; ++i) threads.emplace_back([this] { impl_->io.run(); });
  impl_->io.run();
  for (auto& t : threads) t.join();
}

void server::stop() {
  impl_->stop();
}

void server::stop_on_signals() {
  impl_->signals.add(SIGINT);
  impl_->signals.add(SIGTERM);
  impl_->signals.async_wait([this](beast::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("signal {} received", signal);
    stop();
  });
}

metrics& server::stats() {
  return impl_->state->stats;
}
lobby& server::rooms() {
  return impl_->state->rooms;
}

int run_serve(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  std::string message;
  bool help = false;
  auto cfg = parse_config(args, true, message, help);
  if (!cfg) {
    (help ? out : err) << message << (help ? "" : "\n");
    return help ? 0 : 1;
  }
  spdlog::set_level(spdlog::level::from_str(cfg->log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  if (cfg->journal)
    spdlog::info("database {}", redacted_url(cfg->store_location()));
  else
    spdlog::warn("journal off: rooms live in memory only and are lost when the server stops");
  server s(*cfg);
  // Before the port opens: a SIGTERM as soon as it listens (a test, `docker stop` during a
  // slow start) is a graceful stop once run() starts, not the default disposition's kill.
  s.stop_on_signals();
  if (!s.listen(message)) {
    err << "carcassonne serve: " << message << '\n';
    return 1;
  }
  spdlog::info("listening on {}:{} (WebSocket /ws, HTTP /healthz /metrics /api/rooms)",
               cfg->address, s.port());
  spdlog::info("memory allocator: {}", allocator_name());
  s.run();
  spdlog::info("stopped");
  return 0;
}

}  // namespace carcassonne::server
