#include "outgoing/connection.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include "outgoing/addresses.hpp"

namespace carcassonne::server::outgoing {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

std::unique_ptr<ssl::context> new_tls_context() {
  auto c = std::make_unique<ssl::context>(ssl::context::tls_client);
  c->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                 ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  error_code ignored;  // without a trust store every peer fails verification: safe
  c->set_default_verify_paths(ignored);
  c->set_verify_mode(ssl::verify_peer);
  return c;
}

// The system's trust store, read once for every connection (an SSL_CTX is shared across threads).
ssl::context& shared_tls_context() {
  static const std::unique_ptr<ssl::context> context = new_tls_context();
  return *context;
}

}  // namespace

connection::connection(std::chrono::milliseconds timeout, const std::string& extra_ca_pem)
    : timeout_(timeout), deadline_(std::chrono::steady_clock::now() + timeout) {
  if (!extra_ca_pem.empty()) {
    own_tls_ = new_tls_context();
    error_code ec;
    own_tls_->add_certificate_authority(asio::buffer(extra_ca_pem), ec);
    if (ec)
      setup_failure_ =
          failure{failure::kind::bad_settings, "extra CA certificate: " + ec.message()};
  }
  stream_ = std::make_unique<beast::ssl_stream<tcp::socket>>(
      ioc_, own_tls_ ? *own_tls_ : shared_tls_context());
}

connection::~connection() = default;

// Runs one asynchronous step to its end or to the deadline; then `cancel` ends it and its
// handler still runs before this returns.
template <class Start, class Cancel>
error_code connection::run(Start start, Cancel cancel) {
  std::optional<error_code> result;
  start([&result](error_code ec) { result = ec; });
  ioc_.restart();
  while (!result && ioc_.run_one_until(deadline_) > 0) {
  }
  if (result) return *result;
  cancel();
  ioc_.restart();
  while (!result && ioc_.run_one() > 0) {
  }
  return asio::error::timed_out;
}

std::optional<failure> connection::failed(const char* step, error_code ec) const {
  const std::string what = ec == asio::error::timed_out
                               ? "no answer within " + std::to_string(timeout_.count()) + " ms"
                               : ec.message();
  return failure{failure::kind::unreachable, std::string(step) + ": " + what};
}

std::optional<failure> connection::open(const std::string& host, const std::string& port, reach r) {
  if (setup_failure_) return setup_failure_;
  tcp::resolver resolver(ioc_);
  tcp::resolver::results_type found;
  error_code ec = run(
      [&](auto done) {
        resolver.async_resolve(host, port,
                               [&found, done](error_code e, tcp::resolver::results_type rs) {
                                 found = std::move(rs);
                                 done(e);
                               });
      },
      [&] { resolver.cancel(); });
  if (ec) return failed("name lookup", ec);
  std::vector<tcp::endpoint> endpoints;
  for (const auto& entry : found) {
    const auto address = entry.endpoint().address();
    if (r == reach::public_only) {
      // One address that is not public refuses the name: it may be chosen at any time.
      const std::string kind = refused_address(address);
      if (!kind.empty())
        return failure{failure::kind::refused,
                       "name lookup: " + host + " leads to " + address.to_string() + ", " + kind};
    }
    if (r == reach::loopback_only && !address.is_loopback()) continue;
    endpoints.push_back(entry.endpoint());
  }
  if (endpoints.empty())
    return failure{failure::kind::refused,
                   "name lookup: no address this request may reach for " + host};
  tcp::socket& socket = stream_->next_layer();
  ec = run(
      [&](auto done) {
        asio::async_connect(socket, endpoints,
                            [done](error_code e, const tcp::endpoint&) { done(e); });
      },
      [&socket] {
        error_code ignored;
        socket.close(ignored);
      });
  if (ec) return failed("connect", ec);
  return std::nullopt;
}

std::optional<failure> connection::start_tls(const std::string& host) {
  error_code not_address;
  asio::ip::make_address(host, not_address);
  // SNI names a host, never an address (RFC 6066 §3).
  if (not_address) SSL_set_tlsext_host_name(stream_->native_handle(), host.c_str());
  stream_->set_verify_callback(ssl::host_name_verification(host));
  tcp::socket& socket = stream_->next_layer();
  const error_code ec = run(
      [&](auto done) {
        stream_->async_handshake(ssl::stream_base::client, [done](error_code e) { done(e); });
      },
      [&socket] {
        error_code ignored;
        socket.close(ignored);
      });
  if (ec) return failed("TLS handshake", ec);
  tls_ = true;
  return std::nullopt;
}

std::optional<failure> connection::write(std::string_view data, const char* step) {
  tcp::socket& socket = stream_->next_layer();
  const auto close = [&socket] {
    error_code ignored;
    socket.close(ignored);
  };
  const auto buffer = asio::buffer(data.data(), data.size());
  const auto done_bytes = [](auto done) { return [done](error_code e, std::size_t) { done(e); }; };
  const error_code ec =
      tls_ ? run([&](auto done) { asio::async_write(*stream_, buffer, done_bytes(done)); }, close)
           : run([&](auto done) { asio::async_write(socket, buffer, done_bytes(done)); }, close);
  if (ec) return failed(step, ec);
  return std::nullopt;
}

std::optional<failure> connection::read_line(std::string& line, std::size_t max, const char* step) {
  tcp::socket& socket = stream_->next_layer();
  const auto close = [&socket] {
    error_code ignored;
    socket.close(ignored);
  };
  auto buffer = asio::dynamic_buffer(pending_, max);
  std::size_t length = 0;
  const auto done_bytes = [&length](auto done) {
    return [done, &length](error_code e, std::size_t n) {
      length = n;
      done(e);
    };
  };
  const error_code ec =
      tls_ ? run(
                 [&](auto done) {
                   asio::async_read_until(*stream_, buffer, '\n', done_bytes(done));
                 },
                 close)
           : run([&](auto done) { asio::async_read_until(socket, buffer, '\n', done_bytes(done)); },
                 close);
  if (ec == asio::error::not_found)
    return failure{failure::kind::bad_answer,
                   std::string(step) + ": a line longer than " + std::to_string(max) + " bytes"};
  if (ec) return failed(step, ec);
  line = pending_.substr(0, length);
  pending_.erase(0, length);
  return std::nullopt;
}

std::optional<failure> connection::http(const http::request<http::string_body>& request,
                                        std::size_t max_body,
                                        http::response<http::string_body>& answer) {
  tcp::socket& socket = stream_->next_layer();
  const auto close = [&socket] {
    error_code ignored;
    socket.close(ignored);
  };
  const auto done_bytes = [](auto done) { return [done](error_code e, std::size_t) { done(e); }; };
  error_code ec =
      tls_ ? run([&](auto done) { http::async_write(*stream_, request, done_bytes(done)); }, close)
           : run([&](auto done) { http::async_write(socket, request, done_bytes(done)); }, close);
  if (ec) return failed("exchange", ec);
  http::response_parser<http::string_body> parser;
  parser.header_limit(64 * 1024);
  parser.body_limit(max_body);
  beast::flat_buffer buffer;
  ec = tls_ ? run([&](auto done) { http::async_read(*stream_, buffer, parser, done_bytes(done)); },
                  close)
            : run([&](auto done) { http::async_read(socket, buffer, parser, done_bytes(done)); },
                  close);
  if (ec == http::error::body_limit)
    return failure{failure::kind::too_large,
                   "an answer larger than " + std::to_string(max_body) + " bytes"};
  if (ec) return failed("exchange", ec);
  answer = parser.release();
  return std::nullopt;
}

}  // namespace carcassonne::server::outgoing
