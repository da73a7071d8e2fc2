// One outgoing TCP connection, optionally TLS, bounded by a deadline: the name resolved once,
// the addresses checked against the caller's reach (server-side request forgery) and the
// connection made to the checked addresses themselves, so that a second lookup cannot lead
// elsewhere (DNS rebinding). TLS checks the peer's certificate against the system's trust store
// (and an extra CA when given) and the host's name. Blocking: a worker's thread, never an I/O
// thread. One thread at a time per connection.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server::outgoing {

struct failure {
  enum class kind {
    refused,       // an address (or URL) the caller's reach does not allow
    unreachable,   // no lookup, no connection, TLS refused, no answer before the deadline
    too_large,     // an answer larger than its bound
    bad_answer,    // not the protocol expected
    bad_settings,  // the caller's own settings (an extra CA that is no certificate)
  } what = kind::unreachable;
  std::string message;  // "<step>: <why>", e.g. "connect: Connection refused"
};

// Where a connection may go once its name is resolved.
enum class reach {
  any,            // wherever the name leads (the host's own settings: an identity provider)
  loopback_only,  // only to this machine (plain http:// to a provider in tests)
  public_only,    // only public addresses, refused when the name leads to any other
};

class connection {
 public:
  // Every step must end before `timeout` from now; `extra_ca_pem` is trusted besides the system's.
  connection(std::chrono::milliseconds timeout, const std::string& extra_ca_pem);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  std::optional<failure> open(const std::string& host, const std::string& port, reach r);
  // The TLS handshake, the certificate checked for `host` (SNI when a name, not an address).
  std::optional<failure> start_tls(const std::string& host);
  std::optional<failure> write(std::string_view data, const char* step);
  // One line with its "\n" (at most `max` bytes); line-based protocols (SMTP).
  std::optional<failure> read_line(std::string& line, std::size_t max, const char* step);
  // Whether bytes the peer sent wait unread (after STARTTLS's answer: an injection).
  bool unread() const { return !pending_.empty(); }
  // One HTTP/1.1 request written and its answer read (headers up to 64 KiB, a body up to
  // `max_body` bytes).
  std::optional<failure> http(
      const boost::beast::http::request<boost::beast::http::string_body>& request,
      std::size_t max_body, boost::beast::http::response<boost::beast::http::string_body>& answer);

  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  template <class Start, class Cancel>
  boost::system::error_code run(Start start, Cancel cancel);
  std::optional<failure> failed(const char* step, boost::system::error_code ec) const;

  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point deadline_;
  boost::asio::io_context ioc_;
  std::unique_ptr<boost::asio::ssl::context> own_tls_;
  std::optional<failure> setup_failure_;
  std::unique_ptr<boost::beast::ssl_stream<boost::asio::ip::tcp::socket>> stream_;
  bool tls_ = false;
  std::string pending_;  // bytes read past the last line
};

}  // namespace carcassonne::server::outgoing
