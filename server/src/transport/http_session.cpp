// One HTTP connection: /healthz, /metrics, /api/rooms, the web page, the upgrade to WebSocket
// at /ws and a room's event stream (/api/rooms/{id}/events, sse_session.cpp).
#include <spdlog/spdlog.h>

#include <sstream>

#include "lobby/featured.hpp"
#include "transport/cookies.hpp"
#include "transport/net.hpp"
#include "transport/sse_stream.hpp"
#include "transport/static_files.hpp"

namespace carcassonne::server {

namespace {

constexpr std::size_t max_request_body = 8 * 1024;
constexpr auto request_timeout = std::chrono::seconds(30);

// Every X-Forwarded-For line of a request, in order, as one list (RFC 9110 §5.3): HAProxy's
// `option forwardfor` adds a line of its own after any the client sent, so reading the first
// line alone would take the client's claim for the proxy's.
std::string forwarded_for(const http::request<http::string_body>& request) {
  std::string list;
  const auto [first, last] = request.equal_range("X-Forwarded-For");
  for (auto it = first; it != last; ++it) {
    if (!list.empty()) list += ", ";
    list.append(it->value().data(), it->value().size());
  }
  return list;
}

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  http_session(tcp::socket socket, std::shared_ptr<shared_state> state)
      : stream_(std::move(socket)), state_(std::move(state)) {}

  void run() {
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&http_session::read, shared_from_this()));
  }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(max_request_body);
    stream_.expires_after(request_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&http_session::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return close();
    if (ec == http::error::header_limit || ec == http::error::body_limit ||
        ec.category() == beast::http::make_error_code(http::error::bad_target).category())
      return refuse_malformed(ec);
    if (ec) return;
    auto request = parser_->release();
    if (websocket::is_upgrade(request)) {
      if (request.target() != "/ws") return respond(not_found(request));
      // Another site's page must not act with a player's cookie (docs/protocol.md "Accounts").
      if (cookie_value(request, session_cookie_name) && !origin_allowed(request, state_->cfg))
        return respond(text(request, http::status::forbidden,
                            "cross-site WebSocket with this site's session cookie refused\n"));
      auto lease = admit(request);
      if (!lease) return;
      stream_.expires_never();
      return start_websocket_session(std::move(stream_), std::move(request), state_,
                                     std::move(lease));
    }
    if (request.method() == http::verb::get) {
      const std::string_view target = request.target();
      if (auto room = events_room(target.substr(0, target.find('?')))) {
        auto lease = admit(request);
        if (!lease) return;
        stream_.expires_never();
        return start_sse_session(std::move(stream_), state_, std::move(lease), std::move(*room));
      }
    }
    const auto reply = [self = shared_from_this()](http::response<http::string_body> res) {
      net::post(self->stream_.get_executor(),
                [self, res = std::move(res)]() mutable { self->respond(std::move(res)); });
    };
    if (serve_notify_api(request, *state_, reply) ||
        serve_accounts_api(request, *state_, peer_address(request), reply))
      return;
    respond(route(request));
  }

  // A long-lived connection (a WebSocket or an event stream): within the server's and the
  // address's connection limits, its address's slot; or nothing, the refusal answered.
  std::unique_ptr<address_limits::lease> admit(const http::request<http::string_body>& request) {
    if (state_->draining) {
      respond(text(request, http::status::service_unavailable, "shutting down\n"));
      return nullptr;
    }
    if (state_->stats.connections.load() >=
        static_cast<std::int64_t>(state_->cfg.max_connections)) {
      state_->stats.refused(metrics::refusal::server_connections);
      respond(text(request, http::status::service_unavailable, "too many connections\n"));
      return nullptr;
    }
    beast::error_code peer_ec;
    const auto peer = stream_.socket().remote_endpoint(peer_ec);
    if (peer_ec) return nullptr;
    const auto address =
        client_address(state_->cfg, peer.address().to_string(), forwarded_for(request));
    address_limits::refusal why;
    auto lease = state_->limits.admit(address, why);
    if (!lease) {
      state_->stats.refused(why == address_limits::refusal::connections
                                ? metrics::refusal::address_connections
                                : metrics::refusal::address_connection_rate);
      auto res = text(request, http::status::too_many_requests,
                      why == address_limits::refusal::connections
                          ? "too many connections from your address\n"
                          : "connecting too fast from your address: retry in a second\n");
      res.set(http::field::retry_after, "1");
      res.keep_alive(false);
      respond(std::move(res));
      return nullptr;
    }
    return lease;
  }

  // The client's address as the limits see it (behind a trusted proxy, its X-Forwarded-For).
  std::string peer_address(const http::request<http::string_body>& request) {
    beast::error_code ec;
    const auto peer = stream_.socket().remote_endpoint(ec);
    return client_address(state_->cfg, ec ? std::string() : peer.address().to_string(),
                          forwarded_for(request));
  }

  // A request that does not parse: a plain answer that says so, then the connection closes
  // (what follows on it cannot be trusted to start a request).
  void refuse_malformed(beast::error_code ec) {
    state_->stats.refused(metrics::refusal::bad_http);
    http::request<http::string_body> req;
    req.version(11);
    req.keep_alive(false);
    const auto status = ec == http::error::header_limit
                            ? http::status::request_header_fields_too_large
                        : ec == http::error::body_limit ? http::status::payload_too_large
                                                        : http::status::bad_request;
    auto res = text(req, status, std::string(http::obsolete_reason(status)) + "\n");
    res.keep_alive(false);
    respond(std::move(res));
  }

  http::response<http::string_body> text(const http::request<http::string_body>& req,
                                         http::status status, std::string body,
                                         const char* type = "text/plain; charset=utf-8") {
    http::response<http::string_body> res{status, req.version()};
    res.set(http::field::server, "carcassonne");
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-store");
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
  }

  http::response<http::string_body> not_found(const http::request<http::string_body>& req) {
    return text(req, http::status::not_found, "not found\n");
  }

  http::response<http::string_body> route(const http::request<http::string_body>& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return text(req, http::status::method_not_allowed, "method not allowed\n");
    // Routes match the path alone: "/healthz?x" is /healthz.
    const std::string_view full = req.target();
    const auto target = full.substr(0, full.find('?'));
    const auto query =
        target.size() < full.size() ? full.substr(target.size() + 1) : std::string_view();
    if (target == "/healthz") {
      if (state_->draining) return text(req, http::status::service_unavailable, "draining\n");
      // Still serving its rooms: a proxy keeps sending their players here.
      if (state_->db && state_->db->degraded())
        return text(req, http::status::ok,
                    "degraded: database failing (" + state_->db->fault() +
                        "), moves and new rooms refused\n");
      if (state_->cluster && !state_->cluster->reachable())
        return text(req, http::status::ok, "degraded: redis unreachable, new rooms refused\n");
      return text(req, http::status::ok, "ok\n");
    }
    if (target == "/metrics")
      return text(req, http::status::ok, metrics_text(),
                  "text/plain; version=0.0.4; charset=utf-8");
    if (target == "/api/rooms") return rooms(req, query);
    if (target == "/api/featured") return featured(req, query);
    if (auto id = record_room(target)) return record(req, *id);
    // The web page and its files (static_files.hpp): /, /static/..., /api/tiles.
    if (auto page = serve_static(req, state_->cfg.web_root)) return std::move(*page);
    return not_found(req);
  }

  // GET /api/rooms?offset=&limit=&state=&expansions=a,b: the list_rooms answer's fields.
  http::response<http::string_body> rooms(const http::request<http::string_body>& req,
                                          std::string_view query) {
    nlohmann::json fields = nlohmann::json::object();
    while (!query.empty()) {
      const auto amp = query.find('&');
      const auto pair = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      const auto eq = pair.find('=');
      const std::string key(pair.substr(0, eq));
      const std::string value(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
      if (key == "offset" || key == "limit") {
        // Digits only become a number; anything else stays text, which the filter refuses.
        const bool digits = !value.empty() && value.size() <= 9 &&
                            value.find_first_not_of("0123456789") == std::string::npos;
        fields[key] = digits ? nlohmann::json(std::stoll(value)) : nlohmann::json(value);
      } else if (key == "expansions") {
        fields[key] = nlohmann::json::array();
        for (std::size_t from = 0; from <= value.size();) {
          const auto comma = std::min(value.find(',', from), value.size());
          if (comma > from) fields[key].push_back(value.substr(from, comma - from));
          from = comma + 1;
        }
      } else if (key == "state") {
        fields[key] = value;
      }
    }
    protocol::proto_error error;
    auto filter = protocol::parse_room_filter(fields, error);
    if (!filter)
      return text(req, http::status::bad_request,
                  nlohmann::json{{"error", error.code}, {"message", error.message}}.dump(),
                  "application/json");
    auto page = list_public_rooms(*state_, *filter);
    return text(req, http::status::ok,
                nlohmann::json{{"rooms", std::move(page.rooms)}, {"total", page.total}}.dump(),
                "application/json");
  }

  // GET /api/featured?limit=N (1..20, 5 by default): the public games being played with the most
  // spectators (lobby/featured.hpp), from every page of the public rooms (the cluster's with
  // --redis), each with the list's fields; worked out at most once a second (featured_cache).
  http::response<http::string_body> featured(const http::request<http::string_body>& req,
                                             std::string_view query) {
    std::size_t limit = featured_default;
    while (!query.empty()) {
      const auto amp = query.find('&');
      const auto pair = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      if (!pair.starts_with("limit=")) continue;
      const auto value = pair.substr(6);
      const bool digits = !value.empty() && value.size() <= 2 &&
                          value.find_first_not_of("0123456789") == std::string_view::npos;
      limit = digits ? std::stoul(std::string(value)) : 0;
      if (limit < 1 || limit > featured_max)
        return text(
            req, http::status::bad_request,
            nlohmann::json{{"error", "bad_message"}, {"message", "'limit' is 1..20"}}.dump(),
            "application/json");
    }
    const auto public_playing = [this] {
      protocol::room_filter filter;
      filter.state = "playing";
      auto all = nlohmann::json::array();
      for (;;) {
        auto page = list_public_rooms(*state_, filter);
        for (auto& r : page.rooms) all.push_back(std::move(r));
        filter.offset += protocol::max_room_page;
        if (page.rooms.empty() || static_cast<std::size_t>(filter.offset) >= page.total) break;
      }
      return all;
    };
    const auto rooms = state_->featured.get(limit, featured_cache::clock::now(), public_playing);
    return text(req, http::status::ok, nlohmann::json{{"rooms", rooms}}.dump(), "application/json");
  }

  // The process's counters, then the store's when the journal is on.
  std::string metrics_text() const {
    std::string text = state_->stats.render();
    if (state_->db) {
      std::ostringstream o;
      render_store_metrics(*state_->db, o);
      text += o.str();
    }
    return text;
  }

  // "/api/rooms/{id}/record" -> id.
  static std::optional<std::string> record_room(std::string_view target) {
    constexpr std::string_view head = "/api/rooms/", tail = "/record";
    if (target.size() <= head.size() + tail.size() || !target.starts_with(head) ||
        !target.ends_with(tail))
      return std::nullopt;
    std::string id(target.substr(head.size(), target.size() - head.size() - tail.size()));
    if (id.size() > 64 ||
        id.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz") != std::string::npos)
      return std::nullopt;
    return id;
  }

  // A finished game's record; never before the end, since it holds the seed (the deck order).
  http::response<http::string_body> record(const http::request<http::string_body>& req,
                                           const std::string& id) {
    nlohmann::json rec;
    switch (state_->rooms.finished_record(id, rec)) {
      case lobby::record_status::found:
        return text(req, http::status::ok, rec.dump(), "application/json");
      case lobby::record_status::not_finished:
        return text(req, http::status::conflict,
                    nlohmann::json{{"error", "not_finished"},
                                   {"message", "the record is published when the game is over"}}
                        .dump(),
                    "application/json");
      case lobby::record_status::unreadable:
        return text(req, http::status::service_unavailable,
                    nlohmann::json{{"error", "storage_failed"},
                                   {"message", "the database holds room '" + id +
                                                   "' but cannot give it back now (see the "
                                                   "server's log)"}}
                        .dump(),
                    "application/json");
      case lobby::record_status::unknown:
        break;
    }
    return text(
        req, http::status::not_found,
        nlohmann::json{{"error", "no_such_room"}, {"message", "no room '" + id + "'"}}.dump(),
        "application/json");
  }

  void respond(http::response<http::string_body> res) {
    auto shared = std::make_shared<http::response<http::string_body>>(std::move(res));
    http::async_write(stream_, *shared,
                      [self = shared_from_this(), shared](beast::error_code ec, std::size_t) {
                        if (ec) return;
                        if (!shared->keep_alive()) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<shared_state> state_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void start_http_session(tcp::socket socket, std::shared_ptr<shared_state> state) {
  std::make_shared<http_session>(std::move(socket), std::move(state))->run();
}

}  // namespace carcassonne::server
