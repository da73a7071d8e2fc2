// Internal: Asio/Beast names and the state the network sessions share.
#pragma once
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "base/config.hpp"
#include "base/metrics.hpp"
#include "cluster/cluster_lobby.hpp"
#include "cluster/cluster_member.hpp"
#include "cluster/spectator_relay.hpp"
#include "competition/competitions.hpp"
#include "lobby/featured.hpp"
#include "lobby/lobby.hpp"
#include "notify/service.hpp"
#include "notify/worker.hpp"
#include "oidc/oidc_client.hpp"
#include "players/accounts.hpp"
#include "store/store.hpp"
#include "transport/address_limits.hpp"

namespace carcassonne::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

class websocket_session;
class sse_session;

// Everything sessions share: configuration, metrics, the lobby, the live sessions.
struct shared_state {
  shared_state(net::io_context& ioc, config c)
      : io(ioc), cfg(std::move(c)), limits(cfg), rooms(ioc.get_executor(), cfg, stats) {}

  net::io_context& io;
  config cfg;
  address_limits limits;
  metrics stats;
  std::unique_ptr<store> db;           // nullptr when the journal is off; outlives the rooms
  std::unique_ptr<accounts> players;   // in the store's database: nullptr when the journal is off
  std::unique_ptr<oidc::client> oidc;  // with --oidc-issuer
  // Notifications (docs/hosting.md "Notifications"): with accounts; the worker stops first.
  std::unique_ptr<notify::service> notifications;
  std::unique_ptr<notify::worker> notify_worker;
  lobby rooms;
  featured_cache featured;                    // GET /api/featured's answer, shared for a second
  std::unique_ptr<cluster_member> cluster;    // with --redis: this instance in the room directory
  std::unique_ptr<cluster_lobby> lobby_view;  // with --redis: every instance's public rooms
  // With --redis: spectators here of rooms other instances hold, and this instance's rooms
  // relayed to theirs (docs/scaling.md "Spectators on every instance").
  std::unique_ptr<spectator_relay> relay;
  std::atomic<bool> draining{false};

  std::mutex sessions_mutex;
  std::set<std::weak_ptr<websocket_session>, std::owner_less<std::weak_ptr<websocket_session>>>
      sessions;
  // The signed-in connections of each player (for match_found), under sessions_mutex.
  std::multimap<std::string, std::weak_ptr<websocket_session>> player_sessions;
  // The rooms' event streams (sse_session.cpp), under sessions_mutex.
  std::set<std::weak_ptr<sse_session>, std::owner_less<std::weak_ptr<sse_session>>> streams;
  // Quick play, series and tournaments (docs/protocol.md §24): with accounts; declared last, so
  // that it stops first.
  std::unique_ptr<competition::competitions> competitions;
};

// Sends a frame to every connection of `player` here (any thread).
void tell_player(shared_state& state, const std::string& player, const std::string& frame);

// The public rooms a list_rooms or /api/rooms sees: this server's, or with --redis the cluster's.
inline lobby::page list_public_rooms(const shared_state& s, const protocol::room_filter& f) {
  return s.lobby_view ? s.lobby_view->list(f) : s.rooms.list(f);
}

// Starts an HTTP session on an accepted socket (it may upgrade to a WebSocket session).
void start_http_session(tcp::socket socket, std::shared_ptr<shared_state> state);

// The accounts' HTTP routes (http_api.cpp, docs/protocol.md "Accounts"): true when `req` is one
// of them; `reply` is then called once, from any thread. `address` is the client's.
using http_reply = std::function<void(http::response<http::string_body>)>;
bool serve_accounts_api(const http::request<http::string_body>& req, shared_state& state,
                        const std::string& address, http_reply reply);
// A JSON answer of the HTTP API (http_api.cpp): the body's text, never cached, keep-alive as asked.
http::response<http::string_body> json_response(const http::request<http::string_body>& req,
                                                http::status status, const nlohmann::json& body);

// The notifications' routes (notify_api.cpp, docs/protocol.md §23): /api/me/games,
// /api/me/notifications, /api/me/push-subscriptions, /api/unsubscribe. Same contract.
bool serve_notify_api(const http::request<http::string_body>& req, shared_state& state,
                      http_reply reply);

// Starts a WebSocket session from an upgrade request, holding its address's connection slot.
void start_websocket_session(beast::tcp_stream stream, http::request<http::string_body> request,
                             std::shared_ptr<shared_state> state,
                             std::unique_ptr<address_limits::lease> address);

// Starts a room's event stream (GET /api/rooms/{id}/events, sse_session.cpp), holding its
// address's connection slot: the answer (200 and the events, relayed from the owner in a
// cluster, or an error) is written by the stream.
void start_sse_session(beast::tcp_stream stream, std::shared_ptr<shared_state> state,
                       std::unique_ptr<address_limits::lease> address, std::string room);
// The event streams' part of close_all_sessions and sweep_sessions (a goodbye event then the end;
// a keep-alive comment on a stream silent for a sweep period).
void close_all_streams(shared_state& state);
void sweep_streams(shared_state& state);

// Asks every WebSocket session to say goodbye and close (graceful shutdown).
void close_all_sessions(shared_state& state);

// Has every WebSocket session check its keep-alive and timeouts (a ping to a silent client, the
// end of one silent for the idle timeout or of a close handshake not finished). The server calls
// it every sweep_period(): a quarter of the idle timeout, at most 15 s (the close handshake's
// 30 s must not wait for a long idle timeout's sweep).
void sweep_sessions(shared_state& state);
inline std::chrono::milliseconds sweep_period(const config& c) {
  return std::chrono::milliseconds(std::clamp(c.idle_timeout_seconds * 250, 250, 15'000));
}

}  // namespace carcassonne::server
