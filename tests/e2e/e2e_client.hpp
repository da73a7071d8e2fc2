// End-to-end fixture: the server in-process on a free loopback port (test_server), a small
// WebSocket client over a real socket (ws_client), an HTTP GET, and a table of clients that
// plays a room's game with random legal moves. Every socket operation has a deadline: a test
// never hangs, and nothing sleeps; clients wait by reading frames until the one they expect.
#pragma once
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

// Only the light Boost headers: error codes, HTTP verbs and close codes. The client itself is
// compiled once, in e2e_client.cpp, so that each test file does not instantiate Beast again.
#include <boost/asio/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/config.hpp"
#include "base/metrics.hpp"
#include "transport/server.hpp"

#include "frame_log.hpp"

namespace e2e {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using json = nlohmann::json;
using steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

inline constexpr milliseconds io_timeout{10'000};

// The port of an instance's URL (ws://HOST:PORT/ws, as a `moved` names it): every instance of a
// test's cluster is on this machine.
inline std::uint16_t port_of(const std::string& url) {
  const auto colon = url.rfind(':');
  REQUIRE_MESSAGE((url.starts_with("ws://") && url.ends_with("/ws") && colon > 5), url);
  return static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1)));
}

inline double seconds_since(steady::time_point t0) {
  return std::chrono::duration<double>(steady::now() - t0).count();
}

// Loopback, any free port, two I/O threads, seeds and scripts allowed, and rate limits high
// enough that a test playing as fast as it can is not a flood (the flood test lowers them).
inline carcassonne::server::config test_config() {
  carcassonne::server::config c;
  c.address = "127.0.0.1";
  c.port = 0;
  c.threads = 2;
  c.log_level = "warn";
  c.allow_scripted_rooms = true;
  c.message_rate = 100000;
  c.message_burst = 100000;
  c.journal = false;  // memory only, unless a test gives it a data directory
  // Bots at idle priority get no CPU while the other tests keep every core busy: the bot games
  // the tests wait for would take minutes. (How they yield to players is a benchmark's matter.)
  c.bots_at_idle_priority = false;
  return c;
}

// The server, run() on its own thread for the length of a test; stopped and joined at the end.
class test_server {
 public:
  explicit test_server(carcassonne::server::config c = test_config()) : server_(std::move(c)) {
    spdlog::set_level(spdlog::level::warn);
    std::string error;
    REQUIRE_MESSAGE(server_.listen(error), error);
    port_ = server_.port();
    stopped_ = returned_.get_future();
    thread_ = std::thread([this] {
      server_.run();
      returned_.set_value();
    });
  }
  ~test_server() {
    if (!stop_requested_) request_stop();
    wait_stopped();
  }
  test_server(const test_server&) = delete;
  test_server& operator=(const test_server&) = delete;

  std::uint16_t port() const { return port_; }
  carcassonne::server::server& get() { return server_; }

  void request_stop() {
    stop_requested_ = true;
    stop_at_ = steady::now();
    server_.stop();
  }
  // Seconds from request_stop() until run() returned. A server that does not stop within 15 s
  // ends the test binary rather than hang it.
  double wait_stopped() {
    if (!thread_.joinable()) return 0;
    if (stopped_.wait_for(std::chrono::seconds(15)) != std::future_status::ready) {
      std::fputs("e2e: server::run() did not return 15 s after stop()\n", stderr);
      std::abort();
    }
    thread_.join();
    return seconds_since(stop_at_);
  }

 private:
  carcassonne::server::server server_;
  std::uint16_t port_ = 0;
  std::promise<void> returned_;
  std::future<void> stopped_;
  std::thread thread_;
  bool stop_requested_ = false;
  steady::time_point stop_at_;
};

struct http_reply {
  unsigned status = 0;
  std::map<std::string, std::string> headers;  // lower-case names; repeated ones joined by '\n'
  std::string body;
};

// One HTTP/1.1 request on a new connection (HEAD: the headers alone).
http_reply http_request(std::uint16_t port, http::verb verb, const std::string& target,
                        const std::map<std::string, std::string>& headers = {},
                        const std::string& body = {});

// A POST of a JSON body (Content-Type application/json unless `headers` says otherwise).
inline http_reply http_post(std::uint16_t port, const std::string& target, const json& body,
                            std::map<std::string, std::string> headers = {}) {
  headers.emplace("Content-Type", "application/json");
  return http_request(port, http::verb::post, target, headers, body.dump());
}

// The header that signs a request in with a session or a bot's API token.
inline std::map<std::string, std::string> bearer(const std::string& credential) {
  return {{"Authorization", "Bearer " + credential}};
}

inline http_reply http_get(std::uint16_t port, const std::string& target,
                           const std::map<std::string, std::string>& headers = {}) {
  return http_request(port, http::verb::get, target, headers);
}

// Waits (polling, with a deadline) until `done` holds: for effects the server makes on its
// own strands after a socket closed, which no frame announces.
inline bool eventually(const std::function<bool()>& done) {
  const auto deadline = steady::now() + io_timeout;
  while (!done()) {
    if (steady::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(5));
  }
  return true;
}

// The value of one sample line of /metrics ("name value"), or -1 when absent.
inline double metric(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.size() > name.size() && line.compare(0, name.size(), name) == 0 &&
        line[name.size()] == ' ')
      return std::stod(line.substr(name.size() + 1));
  return -1;
}

// A WebSocket client with its own io_context: each call runs one operation to completion with
// a deadline. It records every frame, and keeps `view` by applying every patch in order. Its
// traffic goes to the frame log for the wire schema's check (frame_log.hpp).
class ws_client {
 public:
  // slow: a small receive buffer and a small segment size, so that the server's send buffer
  // does not grow to megabytes (Linux tunes it from the segment size): a client that stops
  // reading soon leaves frames queued in the server.
  // headers: extra fields of the upgrade request (X-Forwarded-For in the address tests).
  explicit ws_client(std::uint16_t port, bool slow = false,
                     const std::map<std::string, std::string>& headers = {});
  ~ws_client();
  ws_client(const ws_client&) = delete;
  ws_client& operator=(const ws_client&) = delete;

  // Frames as received, parsed, in order; the view kept from snapshots and patches.
  std::vector<std::string> raw;
  std::vector<json> frames;
  json view;
  json view_before_snapshot;  // the view held when the last snapshot arrived
  std::uint64_t seq = 0;
  bool has_view = false;
  bool gap = false;  // a patch whose seq was not the last one + 1, or a patch before any snapshot
  int patches = 0;
  // Called after every frame (the view already updated).
  std::function<void(const std::string& frame, const ws_client& self)> on_frame;

  bool ended() const { return ended_; }
  beast::error_code end_error() const { return end_error_; }
  // The close code the server sent (0 when the connection ended without a close frame).
  int close_code() const { return close_code_; }

  beast::error_code try_send_text(const std::string& text);
  void send_text(const std::string& text) {
    auto ec = try_send_text(text);
    REQUIRE_MESSAGE(!ec, "send: " << ec.message());
  }
  void send(const json& j) { send_text(j.dump()); }
  // Writes `bytes` as they are (WebSocket frames the test encoded itself, masked), `piece` bytes
  // a TCP write with Nagle off: frames that reach the server in many small pieces.
  beast::error_code send_raw(const std::string& bytes, std::size_t piece);
  // Reads exactly n bytes from the socket, beneath WebSocket (the server's frames as they are);
  // fewer when the connection ends or the deadline passes. Use it before any read_frame.
  std::string read_raw(std::size_t n, milliseconds timeout = io_timeout);
  // Sends with a fresh id and waits for the answer carrying it (a reply or an error). Ids are
  // unique in the process: the server remembers a seat's answered ids across connections.
  json request(json j) {
    static std::atomic<int> next_id{1};
    j["id"] = next_id++;
    send(j);
    return wait_reply(j["id"]);
  }

  // The next frame, or nothing once the connection has ended (then see end_error, close_code).
  std::optional<json> read_frame(milliseconds timeout = io_timeout);

  // Reads until a frame matches; fails the test if the connection ends or the deadline passes.
  json wait_for(const std::function<bool(const json&)>& match, const std::string& what) {
    const auto deadline = steady::now() + io_timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now());
      if (left.count() <= 0) FAIL("timed out waiting for " << what);
      auto m = read_frame(left);
      if (!m) FAIL("connection ended (" << end_error_.message() << ") while waiting for " << what);
      if (match(*m)) return *m;
    }
  }
  json wait_type(const std::string& type) {
    return wait_for([&](const json& m) { return m["type"] == type; }, "a '" + type + "' frame");
  }
  json wait_reply(const json& id) {
    return wait_for([&](const json& m) { return m.contains("id") && m["id"] == id; },
                    "the answer to " + id.dump());
  }
  void wait_seq(std::uint64_t n) {
    if (has_view && seq >= n) return;
    wait_for([&](const json&) { return has_view && seq >= n; }, "seq " + std::to_string(n));
  }
  void wait_view(const std::function<bool(const json&)>& pred, const std::string& what) {
    if (has_view && pred(view)) return;
    wait_for([&](const json&) { return has_view && pred(view); }, what);
  }
  // Reads (and keeps) frames until the connection ends; false if it is still open at the deadline.
  bool wait_end() {
    const auto deadline = steady::now() + io_timeout;
    while (!ended_) {
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now());
      if (left.count() <= 0) return false;
      read_frame(left);
    }
    return end_error_ != beast::error::timeout;
  }

  // Abrupt end: the TCP connection closes with no close handshake.
  void drop();

 private:
  void process(const json& m);

  struct connection;  // the socket and its io_context (e2e_client.cpp)
  std::unique_ptr<connection> conn_;
  frame_log::connection log_;
  bool ended_ = false;
  beast::error_code end_error_;
  int close_code_ = 0;
};

// A room's event stream (GET /api/rooms/{id}/events, docs/protocol.md "Streams") read over a
// real socket with deadlines, like ws_client: the answer's status and headers, then the events,
// each kept, the view kept from the snapshot and patches events. Every data line goes to the
// frame log as a server frame (the wire schema's check).
class sse_client {
 public:
  struct event {
    std::string name, data;
  };
  // slow: as ws_client's (a small receive buffer and segment size) for a client that never reads.
  // read_answer: false to send the request and read nothing at all.
  sse_client(std::uint16_t port, const std::string& target, bool slow = false,
             bool read_answer = true, const std::map<std::string, std::string>& headers = {});
  ~sse_client();
  sse_client(const sse_client&) = delete;
  sse_client& operator=(const sse_client&) = delete;

  unsigned status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;                            // of an answer that is not a stream
  std::vector<event> events;
  std::vector<std::string> raw;  // the events' data, in order
  int comments = 0;              // comment lines (keep-alive)
  json view;
  std::uint64_t seq = 0;
  bool has_view = false;
  bool gap = false;
  int patches = 0;

  // The next event, or nothing once the stream ended or the deadline passed; a comment counts
  // in `comments` and is returned as an event named ":".
  std::optional<event> read_event(milliseconds timeout = io_timeout);
  bool ended() const { return ended_; }
  json wait_event(const std::string& name);
  void wait_seq(std::uint64_t n);
  void wait_view(const std::function<bool(const json&)>& pred, const std::string& what);
  // Reads until the stream ends; false if it is still open at the deadline.
  bool wait_end();

 private:
  struct connection;
  std::unique_ptr<connection> conn_;
  bool ended_ = false;
};

// Creates a room (by `creator`, who alone may start it) and returns its id.
inline std::string create_room(ws_client& creator, json setup = json::object(), int seats = 2) {
  auto r =
      creator.request({{"type", "create_room"}, {"setup", std::move(setup)}, {"seats", seats}});
  REQUIRE_MESSAGE(r["type"] == "room_created", r.dump());
  return r["room"].get<std::string>();
}

// Joins a room; returns the seat's token (the snapshot follows and is read by later waits).
inline std::string join(ws_client& c, const std::string& room, const std::string& name) {
  auto r = c.request({{"type", "join"}, {"room", room}, {"name", name}});
  REQUIRE_MESSAGE(r["type"] == "joined", r.dump());
  return r["token"].get<std::string>();
}

inline void spectate(ws_client& c, const std::string& room) {
  auto r = c.request({{"type", "spectate"}, {"room", room}});
  REQUIRE_MESSAGE(r["type"] == "spectating", r.dump());
}

// The frames of `raw` that are patches after `seq`, or chat lines, in order: what two watchers
// of one room must have alike from a seq on.
inline std::vector<std::string> patches_and_chat_after(const std::vector<std::string>& raw,
                                                       std::uint64_t seq) {
  std::vector<std::string> out;
  for (const auto& text : raw) {
    json f = json::parse(text);
    if ((f["type"] == "patch" && f["seq"].get<std::uint64_t>() > seq) || f["type"] == "chat")
      out.push_back(text);
  }
  return out;
}

// Asks for a snapshot; checks it equals the view the client had patched up to that moment.
inline void check_view_is_snapshot(ws_client& c) {
  const auto seq_before = c.seq;
  auto r = c.request({{"type", "snapshot"}});
  REQUIRE_MESSAGE(r["type"] == "snapshot", r.dump());
  CHECK(r["seq"].get<std::uint64_t>() == seq_before);
  CHECK(c.view_before_snapshot == r["view"]);
  CHECK_FALSE(c.gap);
}

// The clients of one room: seats in engine order (nullptr while a seat is away) and spectators.
struct table {
  std::vector<ws_client*> seats;
  std::vector<ws_client*> watchers;
  std::mt19937_64 rng{1};
  int moves = 0;

  // Every live client reads until it has seen seq.
  void sync(std::uint64_t n) {
    for (auto* c : seats)
      if (c) c->wait_seq(n);
    for (auto* c : watchers) c->wait_seq(n);
  }
  const json& game() const {
    for (auto* c : seats)
      if (c && c->has_view) return c->view["game"];
    FAIL("no seat has a view");
    static const json none;
    return none;
  }
  bool finished() const { return game()["status"] == "finished"; }
  // The seat that must act now (the active seat, except in another seat's Easter bunny go).
  int acting() const { return game()["awaiting"]["seat"].get<int>(); }

  // The creator starts the game; every client reads up to the patch that brings the game.
  void start(ws_client& creator) {
    auto r = creator.request({{"type", "start"}});
    REQUIRE_MESSAGE(r["type"] == "started", r.dump());
    creator.wait_view([](const json& v) { return !v["game"].is_null(); }, "the game in the view");
    sync(creator.seq);
  }
  // The seat to act sends a random legal move from its own view; everyone reads its patch.
  void step() {
    ws_client* c = seats.at(acting());
    REQUIRE(c != nullptr);
    const json& legal = c->view["game"]["legal_moves"];
    REQUIRE(legal.is_array());
    REQUIRE(!legal.empty());
    const json mv = legal[rng() % legal.size()];
    auto r = c->request({{"type", "move"}, {"move", mv}});
    REQUIRE_MESSAGE(r["type"] == "move_accepted", r.dump());
    ++moves;
    sync(r["seq"].get<std::uint64_t>());
  }
  void play(int n) {
    for (int i = 0; i < n && !finished(); ++i) step();
  }
  void play_to_end() {
    for (int i = 0; i < 2000 && !finished(); ++i) step();
    REQUIRE(finished());
  }
};

// One room's game played by clients of its own, one per seat in seat order, keeping every move
// answered move_accepted: the tests that kill a server (persistence, failover) compare them with
// the stored record once the game has resumed and finished. Defined in e2e_client.cpp.
struct seated_game {
  std::string room;
  std::vector<std::unique_ptr<ws_client>> clients;  // by seat
  std::vector<std::string> tokens;                  // by seat
  std::vector<json> accepted;                       // every move answered move_accepted, in order
  json in_flight;  // the move sent as the server died, with its id (send_in_flight)

  // Two clients on `port` make a seeded room of 2 there (`moved: true`: a cluster places it on
  // the instance asked, docs/protocol.md §22) and take its seats as Ann and Bob.
  void seat_two_at(std::uint16_t port, const std::string& seed) {
    for (int s = 0; s < 2; ++s) clients.push_back(std::make_unique<ws_client>(port));
    auto created = clients[0]->request(
        {{"type", "create_room"}, {"setup", {{"seed", seed}}}, {"seats", 2}, {"moved", true}});
    REQUIRE_MESSAGE(created["type"] == "room_created", created.dump());
    room = created["room"].get<std::string>();
    tokens.push_back(join(*clients[0], room, "Ann"));
    tokens.push_back(join(*clients[1], room, "Bob"));
  }
  // The client of the seat that must act now (the active seat, except in an Easter bunny go).
  ws_client& acting();
  bool finished() const;
  // Every client reads until it has seen seq.
  void sync(std::uint64_t seq);
  // The seat-0 client (the creator) starts; everyone reads up to the patch that brings the game.
  void start();
  // The seat to act plays a random legal move of its view; everyone reads its patch.
  void step(std::mt19937_64& rng);
  // The seat to act sends a random legal move with this id and does not wait for the answer.
  void send_in_flight(std::mt19937_64& rng, int id);
  // After every seat resumed: the move in flight sent again with its id is accepted (once, stored
  // before the kill or not); everyone reads its patch. The answer.
  json resend_in_flight();
  // The record's moves are the accepted ones, in order: nothing lost, nothing twice.
  void check_record(const json& record) const;
  // Each seat's client anew, back in the room through a cluster's instance (seat s at
  // doors[s % doors.size()]), as a client behind the cluster's one address would: `resume`
  // there, following one `moved` (to an instance on this machine). While the room is between
  // owners (`room_unavailable`, or a `moved` to `stale_port`, the instance that let it go; 0:
  // none) it tries again until `deadline`. Then every seat reads its snapshot.
  void resume_in_cluster(const std::vector<std::uint16_t>& doors, std::uint16_t stale_port,
                         steady::time_point deadline);
};

}  // namespace e2e
