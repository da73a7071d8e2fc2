// A bare Boost.Beast WebSocket echo server and a closed-loop client, to compare the game
// server's message rate with what Beast alone does on the same machine (docs/performance.md);
// and a bare broadcast (a hub writing each frame it reads to every other connection, and a
// client of N listeners and one sender) for a room's spectators (spectators_side_by_side.sh).
//   echo_bench server PORT THREADS
//   echo_bench client PORT CONNECTIONS SECONDS THREADS
//   echo_bench hub PORT
//   echo_bench listen PORT LISTENERS SECONDS RATE [BYTES]
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

namespace {

class echo_session : public std::enable_shared_from_this<echo_session> {
 public:
  explicit echo_session(tcp::socket s) : ws_(std::move(s)) {}
  void run() {
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->ws_.text(self->ws_.got_text());
      self->ws_.async_write(self->buffer_.data(), [self](beast::error_code ec2, std::size_t) {
        if (ec2) return;
        self->buffer_.consume(self->buffer_.size());
        self->read();
      });
    });
  }
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

void accept(tcp::acceptor& a, net::io_context& io) {
  a.async_accept(net::make_strand(io), [&](beast::error_code ec, tcp::socket s) {
    if (!ec) {
      s.set_option(tcp::no_delay(true), ec);
      std::make_shared<echo_session>(std::move(s))->run();
    }
    accept(a, io);
  });
}

std::atomic<long> round_trips{0};
std::atomic<bool> stopping{false};

class echo_client : public std::enable_shared_from_this<echo_client> {
 public:
  explicit echo_client(net::io_context& io) : ws_(net::make_strand(io)) {}
  void start(const tcp::endpoint& ep) {
    beast::get_lowest_layer(ws_).async_connect(
        ep, [self = shared_from_this()](beast::error_code ec) {
          if (ec) return;
          beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true), ec);
          self->ws_.async_handshake("127.0.0.1", "/", [self](beast::error_code ec2) {
            if (!ec2) self->round();
          });
        });
  }

 private:
  void round() {
    if (stopping) return;
    ws_.async_write(
        net::buffer(message_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
          if (ec) return;
          self->ws_.async_read(self->buffer_, [self](beast::error_code ec2, std::size_t) {
            if (ec2) return;
            self->buffer_.consume(self->buffer_.size());
            ++round_trips;
            self->round();
          });
        });
  }
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  // About the size of a move message of the game protocol.
  std::string message_ =
      R"({"type":"move","id":12,"move":{"type":"place_tile","x":3,"y":-2,"rotation":90}})";
};

// The broadcast: every session of one io_context thread (no strands, as the game server with
// one I/O thread), each with its queue of frames to write.
class hub_session;
std::map<hub_session*, std::shared_ptr<hub_session>> hub_members;

class hub_session : public std::enable_shared_from_this<hub_session> {
 public:
  explicit hub_session(tcp::socket s) : ws_(std::move(s)) {}
  void run() {
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      hub_members[self.get()] = self;
      self->read();
    });
  }
  void send(const std::shared_ptr<const std::string>& frame) {
    queue_.push_back(frame);
    if (queue_.size() == 1) write_next();
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->leave();
      const auto frame =
          std::make_shared<const std::string>(beast::buffers_to_string(self->buffer_.data()));
      self->buffer_.consume(self->buffer_.size());
      for (auto& [member, session] : hub_members)
        if (member != self.get()) session->send(frame);
      self->read();
    });
  }
  void write_next() {
    ws_.async_write(net::buffer(*queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) return self->leave();
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->write_next();
                    });
  }
  void leave() { hub_members.erase(this); }
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
};

void accept_hub(tcp::acceptor& a) {
  a.async_accept([&](beast::error_code ec, tcp::socket s) {
    if (!ec) {
      s.set_option(tcp::no_delay(true), ec);
      std::make_shared<hub_session>(std::move(s))->run();
    }
    accept_hub(a);
  });
}

// The listening side, on one thread (as loadtest's spectators): each frame starts with its
// number; when the last listener has it, the time since it was sent is its latency.
struct broadcast_stats {
  int listeners = 0, ready = 0;
  std::map<long, std::pair<std::chrono::steady_clock::time_point, int>> in_flight;  // sent, got
  std::vector<double> latency_ms;
  long frames = 0;
};

class listener : public std::enable_shared_from_this<listener> {
 public:
  listener(net::io_context& io, broadcast_stats& st) : ws_(io), stats_(st) {}
  template <class Ready>
  void start(const tcp::endpoint& ep, Ready ready) {
    beast::get_lowest_layer(ws_).async_connect(
        ep, [self = shared_from_this(), ready](beast::error_code ec) {
          if (ec) return;
          beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true), ec);
          self->ws_.async_handshake("127.0.0.1", "/", [self, ready](beast::error_code ec2) {
            if (ec2) return;
            ready(*self);
          });
        });
  }
  void listen() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      const auto text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      auto& st = self->stats_;
      ++st.frames;
      const auto it = st.in_flight.find(std::stol(text));
      if (it != st.in_flight.end() && ++it->second.second == st.listeners) {
        st.latency_ms.push_back(std::chrono::duration<double, std::milli>(
                                    std::chrono::steady_clock::now() - it->second.first)
                                    .count());
        st.in_flight.erase(it);
      }
      self->listen();
    });
  }
  websocket::stream<beast::tcp_stream>& ws() { return ws_; }

 private:
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  broadcast_stats& stats_;
};

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

int listen_main(unsigned short port, int n, double seconds, double rate, std::size_t bytes) {
  net::io_context io;
  const tcp::endpoint ep{net::ip::make_address("127.0.0.1"), port};
  broadcast_stats st;
  st.listeners = n;
  std::vector<std::shared_ptr<listener>> all;
  auto sender = std::make_shared<listener>(io, st);
  net::steady_timer tick(io);
  long next = 0;
  std::string frame;
  auto begin = std::chrono::steady_clock::now();
  const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(1 / rate));
  std::function<void()> send_next = [&] {
    if (std::chrono::steady_clock::now() - begin >= std::chrono::duration<double>(seconds))
      return io.stop();
    frame = std::to_string(next) + " ";
    frame.resize(std::max(bytes, frame.size()), 'x');
    st.in_flight[next++] = {std::chrono::steady_clock::now(), 0};
    sender->ws().async_write(net::buffer(frame), [](beast::error_code, std::size_t) {});
    tick.expires_after(period);
    tick.async_wait([&](beast::error_code ec) {
      if (!ec) send_next();
    });
  };
  // The sender connects once every listener is in; sending starts when it is.
  const auto start_sender = [&] {
    sender->start(ep, [&](listener&) {
      begin = std::chrono::steady_clock::now();
      send_next();
    });
  };
  for (int i = 0; i < n; ++i) {
    all.push_back(std::make_shared<listener>(io, st));
    all.back()->start(ep, [&](listener& l) {
      l.listen();
      if (++st.ready == n) start_sender();
    });
  }
  io.run();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::cout << "{\"listeners\":" << n << ",\"broadcasts\":" << next
            << ",\"frames_per_second\":" << static_cast<double>(st.frames) / elapsed
            << ",\"latency_to_last_ms\":{\"p50\":" << quantile(st.latency_ms, 0.5)
            << ",\"p99\":" << quantile(st.latency_ms, 0.99) << "},\"seconds\":" << elapsed << "}\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: echo_bench server PORT THREADS | client PORT CONNECTIONS SECONDS THREADS"
                 " | hub PORT | listen PORT LISTENERS SECONDS RATE [BYTES]\n";
    return 1;
  }
  const std::string mode = argv[1];
  const auto port = static_cast<unsigned short>(std::stoi(argv[2]));
  if (mode == "listen" && argc > 5)
    return listen_main(port, std::stoi(argv[3]), std::stod(argv[4]), std::stod(argv[5]),
                       argc > 6 ? std::stoul(argv[6]) : 400);
  net::io_context io;
  std::vector<std::thread> threads;
  if (mode == "hub") {
    tcp::acceptor a(io, {net::ip::make_address("127.0.0.1"), port}, true);
    a.listen(net::socket_base::max_listen_connections);
    accept_hub(a);
    io.run();
  } else if (mode == "server") {
    const int n = std::stoi(argv[3]);
    tcp::acceptor a(io, {net::ip::make_address("127.0.0.1"), port});
    accept(a, io);
    for (int i = 1; i < n; ++i) threads.emplace_back([&] { io.run(); });
    io.run();
  } else {
    const int connections = std::stoi(argv[3]);
    const double seconds = argc > 4 ? std::stod(argv[4]) : 10;
    const int n = argc > 5 ? std::stoi(argv[5]) : 1;
    const tcp::endpoint ep{net::ip::make_address("127.0.0.1"), port};
    for (int i = 0; i < connections; ++i) std::make_shared<echo_client>(io)->start(ep);
    net::steady_timer t(io, std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(seconds)));
    const auto begin = std::chrono::steady_clock::now();
    t.async_wait([&](beast::error_code) {
      stopping = true;
      io.stop();
    });
    for (int i = 1; i < n; ++i) threads.emplace_back([&] { io.run(); });
    io.run();
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    // The timer fires late when the thread is busy (thousands of handshakes at the start):
    // the rate is over the time actually run, which is printed too.
    std::cout << "{\"connections\":" << connections
              << ",\"round_trips_per_second\":" << static_cast<double>(round_trips.load()) / elapsed
              << ",\"seconds\":" << elapsed << "}\n";
  }
  for (auto& th : threads) th.join();
  return 0;
}
