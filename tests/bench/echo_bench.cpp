// A bare Boost.Beast WebSocket echo server and a closed-loop client, to compare the game
// server's message rate with what Beast alone does on the same machine (docs/performance.md).
//   echo_bench server PORT THREADS
//   echo_bench client PORT CONNECTIONS SECONDS THREADS
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <chrono>
#include <iostream>
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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr
        << "usage: echo_bench server PORT THREADS | client PORT CONNECTIONS SECONDS THREADS\n";
    return 1;
  }
  const std::string mode = argv[1];
  const auto port = static_cast<unsigned short>(std::stoi(argv[2]));
  net::io_context io;
  std::vector<std::thread> threads;
  if (mode == "server") {
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
