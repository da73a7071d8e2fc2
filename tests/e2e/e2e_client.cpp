// The Beast parts of the end-to-end fixture (e2e_client.hpp), compiled once for every test file.
#include "e2e_client.hpp"

#include "process.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace e2e {

using tcp = net::ip::tcp;

namespace {

// Runs one asynchronous operation on `ioc` to completion; its error, or timed_out when the
// handler never ran.
template <class Start>
beast::error_code run_one(net::io_context& ioc, Start start) {
  beast::error_code result = net::error::timed_out;
  start([&](beast::error_code ec, auto&&...) { result = ec; });
  ioc.restart();
  ioc.run();
  return result;
}

}  // namespace

http_reply http_request(std::uint16_t port, http::verb verb, const std::string& target,
                        const std::map<std::string, std::string>& headers,
                        const std::string& body) {
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  s.expires_after(io_timeout);
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [k, v] : headers) req.set(k, v);
  req.keep_alive(false);
  req.body() = body;
  if (!body.empty() || verb == http::verb::post) req.prepare_payload();
  http::response_parser<http::string_body> parser;
  parser.skip(verb == http::verb::head);  // a HEAD answer announces a body it does not send
  beast::flat_buffer buffer;
  beast::error_code result;
  s.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                  [&](beast::error_code ec) {
                    if (ec) return void(result = ec);
                    http::async_write(s, req, [&](beast::error_code ec2, std::size_t) {
                      if (ec2) return void(result = ec2);
                      http::async_read(s, buffer, parser,
                                       [&](beast::error_code ec3, std::size_t) { result = ec3; });
                    });
                  });
  ioc.run();
  REQUIRE_MESSAGE(!result, target << ": " << result.message());
  http_reply r;
  const auto& res = parser.get();
  r.status = res.result_int();
  for (const auto& f : res) {
    std::string name(f.name_string());
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    auto& value = r.headers[name];  // a repeated field (Set-Cookie): its values, one a line
    value += (value.empty() ? "" : "\n") + std::string(f.value());
  }
  r.body = res.body();
  return r;
}

struct ws_client::connection {
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
};

ws_client::ws_client(std::uint16_t port, bool slow,
                     const std::map<std::string, std::string>& headers)
    : conn_(std::make_unique<connection>()) {
  auto& ws = conn_->ws;
  if (!headers.empty())
    ws.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
      for (const auto& [k, v] : headers) req.set(k, v);
    }));
  auto& layer = beast::get_lowest_layer(ws);
  if (slow) {
    layer.socket().open(tcp::v4());
    layer.socket().set_option(net::socket_base::receive_buffer_size(4096));
    const int segment = 536;
    ::setsockopt(layer.socket().native_handle(), IPPROTO_TCP, TCP_MAXSEG, &segment, sizeof segment);
  }
  layer.expires_after(io_timeout);
  auto ec = run_one(conn_->ioc, [&](auto h) {
    layer.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), h);
  });
  REQUIRE_MESSAGE(!ec, "connect: " << ec.message());
  ec = run_one(conn_->ioc,
               [&](auto h) { ws.async_handshake("127.0.0.1:" + std::to_string(port), "/ws", h); });
  REQUIRE_MESSAGE(!ec, "handshake: " << ec.message());
}

ws_client::~ws_client() {
  if (has_view) log_.last_view(view);
}

beast::error_code ws_client::try_send_text(const std::string& text) {
  auto& ws = conn_->ws;
  beast::get_lowest_layer(ws).expires_after(io_timeout);
  ws.text(true);
  auto ec = run_one(conn_->ioc, [&](auto h) { ws.async_write(net::buffer(text), h); });
  if (!ec) log_.sent(text);
  return ec;
}

beast::error_code ws_client::send_raw(const std::string& bytes, std::size_t piece) {
  auto& layer = beast::get_lowest_layer(conn_->ws);
  beast::error_code ec;
  layer.socket().set_option(tcp::no_delay(true), ec);
  log_.raw_sent(bytes.size());
  for (std::size_t at = 0; at < bytes.size() && !ec; at += piece) {
    const auto n = std::min(piece, bytes.size() - at);
    layer.expires_after(io_timeout);
    ec = run_one(conn_->ioc,
                 [&](auto h) { net::async_write(layer, net::buffer(bytes.data() + at, n), h); });
  }
  return ec;
}

std::string ws_client::read_raw(std::size_t n, milliseconds timeout) {
  auto& layer = beast::get_lowest_layer(conn_->ws);
  std::string bytes(n, '\0');
  std::size_t got = 0;
  layer.expires_after(timeout);
  run_one(conn_->ioc, [&](auto h) {
    net::async_read(layer, net::buffer(bytes), [&, h](beast::error_code ec, std::size_t k) {
      got = k;
      h(ec);
    });
  });
  bytes.resize(got);
  log_.raw_received(got);
  return bytes;
}

std::optional<json> ws_client::read_frame(milliseconds timeout) {
  if (ended_) return std::nullopt;
  auto& ws = conn_->ws;
  auto& buffer = conn_->buffer;
  beast::get_lowest_layer(ws).expires_after(timeout);
  buffer.clear();
  auto ec = run_one(conn_->ioc, [&](auto h) { ws.async_read(buffer, h); });
  if (ec) {
    ended_ = true;
    end_error_ = ec;
    close_code_ = ws.reason().code;  // 0 when no close frame came
    return std::nullopt;
  }
  raw.push_back(beast::buffers_to_string(buffer.data()));
  json m = json::parse(raw.back());
  if (ws.got_binary())
    log_.received_binary(raw.back().size());
  else
    log_.received(raw.back(), m);
  process(m);
  frames.push_back(m);
  if (on_frame) on_frame(raw.back(), *this);
  return m;
}

void ws_client::drop() {
  beast::get_lowest_layer(conn_->ws).close();
  ended_ = true;
}

void ws_client::process(const json& m) {
  if (m["type"] == "snapshot") {
    view_before_snapshot = view;
    view = m["view"];
    seq = m["seq"].get<std::uint64_t>();
    has_view = true;
  } else if (m["type"] == "patch") {
    ++patches;
    const auto s = m["seq"].get<std::uint64_t>();
    if (!has_view || s != seq + 1) gap = true;
    seq = s;
    if (has_view) view = view.patch(m["patch"]);
  }
}

struct sse_client::connection {
  net::io_context ioc;
  beast::tcp_stream stream{ioc};
  std::string buffer;
};

sse_client::sse_client(std::uint16_t port, const std::string& target, bool slow, bool read_answer,
                       const std::map<std::string, std::string>& extra)
    : conn_(std::make_unique<connection>()) {
  auto& s = conn_->stream;
  if (slow) {
    s.socket().open(tcp::v4());
    s.socket().set_option(net::socket_base::receive_buffer_size(4096));
    const int segment = 536;
    ::setsockopt(s.socket().native_handle(), IPPROTO_TCP, TCP_MAXSEG, &segment, sizeof segment);
  }
  s.expires_after(io_timeout);
  auto ec = run_one(conn_->ioc, [&](auto h) {
    s.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), h);
  });
  REQUIRE_MESSAGE(!ec, "connect: " << ec.message());
  std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  request += "Accept: text/event-stream\r\n";
  for (const auto& [k, v] : extra) request += k + ": " + v + "\r\n";
  request += "\r\n";
  s.expires_after(io_timeout);
  ec = run_one(conn_->ioc, [&](auto h) { net::async_write(s, net::buffer(request), h); });
  REQUIRE_MESSAGE(!ec, "request: " << ec.message());
  if (!read_answer) return;
  auto& buffer = conn_->buffer;
  s.expires_after(io_timeout);
  std::size_t head_size = 0;
  ec = run_one(conn_->ioc, [&](auto h) {
    net::async_read_until(s, net::dynamic_buffer(buffer), "\r\n\r\n",
                          [&, h](beast::error_code e, std::size_t n) {
                            head_size = n;
                            h(e);
                          });
  });
  REQUIRE_MESSAGE(!ec, "answer: " << ec.message());
  std::istringstream head(buffer.substr(0, head_size));
  buffer.erase(0, head_size);
  std::string line;
  std::getline(head, line);
  REQUIRE(line.size() > 12);
  status = static_cast<unsigned>(std::stoi(line.substr(9, 3)));
  while (std::getline(head, line) && line != "\r") {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    while (!value.empty() && (value.back() == '\r')) value.pop_back();
    headers[name] = value;
  }
  if (status != 200) {
    // An answer with a length, then the end of the connection.
    s.expires_after(io_timeout);
    run_one(conn_->ioc, [&](auto h) { net::async_read(s, net::dynamic_buffer(buffer), h); });
    body = buffer;
    ended_ = true;
  }
}

sse_client::~sse_client() {
  if (has_view) frame_log::connection().last_view(view);
}

std::optional<sse_client::event> sse_client::read_event(milliseconds timeout) {
  if (ended_) return std::nullopt;
  auto& s = conn_->stream;
  auto& buffer = conn_->buffer;
  for (;;) {
    const auto end = buffer.find("\n\n");
    if (end != std::string::npos) {
      const std::string block = buffer.substr(0, end);
      buffer.erase(0, end + 2);
      event e;
      bool comment = false, retry = false;
      std::istringstream lines(block);
      for (std::string line; std::getline(lines, line);) {
        if (line.starts_with(":"))
          comment = true;
        else if (line.starts_with("event: "))
          e.name = line.substr(7);
        else if (line.starts_with("data: "))
          e.data += line.substr(6);
        else if (line.starts_with("retry: "))
          retry = true;
        else
          FAIL("an unexpected line in the stream: " << line);
      }
      if (comment && e.data.empty()) {
        ++comments;
        return event{":", ""};
      }
      if (retry && e.data.empty()) continue;
      REQUIRE_MESSAGE(!e.name.empty(), block);
      json m = json::parse(e.data);
      CHECK(m.value("type", "") == e.name);
      frame_log::server_frame(e.data);
      if (e.name == "snapshot") {
        view = m["view"];
        seq = m["seq"].get<std::uint64_t>();
        has_view = true;
      } else if (e.name == "patch") {
        ++patches;
        const auto n = m["seq"].get<std::uint64_t>();
        if (!has_view || n != seq + 1) gap = true;
        seq = n;
        if (has_view) view = view.patch(m["patch"]);
      }
      events.push_back(e);
      raw.push_back(e.data);
      return e;
    }
    s.expires_after(timeout);
    std::array<char, 4096> chunk;
    std::size_t got = 0;
    auto ec = run_one(conn_->ioc, [&](auto h) {
      s.async_read_some(net::buffer(chunk), [&, h](beast::error_code e, std::size_t n) {
        got = n;
        h(e);
      });
    });
    buffer.append(chunk.data(), got);
    if (ec) {
      if (ec != beast::error::timeout) ended_ = true;
      return std::nullopt;
    }
  }
}

json sse_client::wait_event(const std::string& name) {
  const auto deadline = steady::now() + io_timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now());
    if (left.count() <= 0) FAIL("timed out waiting for the event " << name);
    auto e = read_event(left);
    if (!e && ended_) FAIL("the stream ended while waiting for the event " << name);
    if (e && e->name == name) return json::parse(e->data);
  }
}

void sse_client::wait_seq(std::uint64_t n) {
  wait_view([&](const json&) { return seq >= n; }, "seq " + std::to_string(n));
}

void sse_client::wait_view(const std::function<bool(const json&)>& pred, const std::string& what) {
  const auto deadline = steady::now() + io_timeout;
  while (!(has_view && pred(view))) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now());
    if (left.count() <= 0) FAIL("timed out waiting for " << what);
    auto e = read_event(left);
    if (!e && ended_) FAIL("the stream ended while waiting for " << what);
  }
}

bool sse_client::wait_end() {
  const auto deadline = steady::now() + io_timeout;
  while (!ended_) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now());
    if (left.count() <= 0) return false;
    read_event(left);
  }
  return true;
}

std::uint16_t free_port() {
  net::io_context ioc;
  tcp::acceptor a(ioc, {net::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

bool wait_listening(std::uint16_t port, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    net::io_context ioc;
    tcp::socket s(ioc);
    boost::system::error_code ec;
    s.connect({net::ip::make_address("127.0.0.1"), port}, ec);
    if (!ec) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

ws_client& seated_game::acting() {
  return *clients.at(clients[0]->view["game"]["awaiting"]["seat"].get<std::size_t>());
}

bool seated_game::finished() const {
  return clients[0]->view["game"]["status"] == "finished";
}

void seated_game::sync(std::uint64_t seq) {
  for (auto& c : clients) c->wait_seq(seq);
}

void seated_game::start() {
  auto r = clients[0]->request({{"type", "start"}});
  REQUIRE_MESSAGE(r["type"] == "started", r.dump());
  clients[0]->wait_view([](const json& v) { return !v["game"].is_null(); }, "the game");
  sync(clients[0]->seq);
}

void seated_game::step(std::mt19937_64& rng) {
  ws_client& c = acting();
  const json& legal = c.view["game"]["legal_moves"];
  REQUIRE(!legal.empty());
  const json mv = legal[rng() % legal.size()];
  auto r = c.request({{"type", "move"}, {"move", mv}});
  REQUIRE_MESSAGE(r["type"] == "move_accepted", r.dump());
  accepted.push_back(mv);
  sync(r["seq"].get<std::uint64_t>());
}

void seated_game::send_in_flight(std::mt19937_64& rng, int id) {
  ws_client& c = acting();
  const json& legal = c.view["game"]["legal_moves"];
  REQUIRE(!legal.empty());
  in_flight = {{"type", "move"}, {"move", legal[rng() % legal.size()]}, {"id", id}};
  c.send(in_flight);
}

json seated_game::resend_in_flight() {
  sync(clients.back()->seq);
  ws_client& c = *clients.at(in_flight["move"]["seat"].get<std::size_t>());
  c.send(in_flight);
  auto r = c.wait_reply(in_flight["id"]);
  REQUIRE_MESSAGE(r["type"] == "move_accepted", r.dump());
  accepted.push_back(in_flight["move"]);
  sync(r["seq"].get<std::uint64_t>());
  return r;
}

void seated_game::resume_in_cluster(const std::vector<std::uint16_t>& doors,
                                    std::uint16_t stale_port, steady::time_point deadline) {
  REQUIRE(!doors.empty());
  clients.clear();
  for (std::size_t s = 0; s < tokens.size(); ++s) {
    const json resume{{"type", "resume"}, {"room", room}, {"token", tokens[s]}};
    std::unique_ptr<ws_client> found;
    while (!found) {
      REQUIRE_MESSAGE(steady::now() < deadline, "room " << room << " was not adopted");
      auto c = std::make_unique<ws_client>(doors[s % doors.size()]);
      auto r = c->request(resume);
      if (r["type"] == "moved") {
        CHECK(r["room"] == room);
        const auto to = port_of(r["url"].get<std::string>());
        // Until the old owner's heartbeat lapses (one TTL) `moved` may still name it.
        if (to == stale_port) {
          std::this_thread::sleep_for(milliseconds(50));
          continue;
        }
        c = std::make_unique<ws_client>(to);
        auto bounced = resume;
        bounced["moved"] = true;
        r = c->request(bounced);
      }
      if (r["type"] == "resumed") {
        CHECK(r["seat"] == s);
        found = std::move(c);
      } else {
        REQUIRE_MESSAGE(r["code"] == "room_unavailable", r.dump());
        std::this_thread::sleep_for(milliseconds(50));
      }
    }
    clients.push_back(std::move(found));
  }
  sync(0);  // each seat's snapshot
}

void seated_game::check_record(const json& record) const {
  REQUIRE(record["moves"].size() == accepted.size());
  for (std::size_t i = 0; i < accepted.size(); ++i)
    for (const auto& [key, value] : accepted[i].items()) CHECK(record["moves"][i][key] == value);
}

}  // namespace e2e
