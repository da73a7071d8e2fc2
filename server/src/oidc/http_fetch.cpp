#include "oidc/http_fetch.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <algorithm>
#include <cctype>
#include <memory>

namespace carcassonne::server::oidc {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

struct target {
  bool tls = false, loopback = false;
  std::string host, port, path;  // host without IPv6 brackets; path with its query
};

bool is_loopback_host(const std::string& host) {
  std::string lower = host;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "localhost") return true;
  error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  return !ec && address.is_loopback();
}

std::optional<target> parse_url(const std::string& url, std::string& why) {
  for (const char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return why = "a URL with a space or a control character", std::nullopt;
  target t;
  std::size_t at = 0;
  if (url.rfind("https://", 0) == 0) {
    t.tls = true, t.port = "443", at = 8;
  } else if (url.rfind("http://", 0) == 0) {
    t.port = "80", at = 7;
  } else {
    return why = "not an http(s) URL: " + url, std::nullopt;
  }
  const std::size_t end = std::min(url.find_first_of("/?#", at), url.size());
  std::string authority = url.substr(at, end - at);
  if (authority.find('@') != std::string::npos)
    return why = "a URL with user information", std::nullopt;
  std::size_t colon = authority.rfind(':');
  if (!authority.empty() && authority.front() == '[') {  // an IPv6 literal
    const std::size_t close = authority.find(']');
    if (close == std::string::npos) return why = "a bad IPv6 address in " + url, std::nullopt;
    t.host = authority.substr(1, close - 1);
    colon = authority.size() > close + 1 ? close + 1 : std::string::npos;
    if (colon != std::string::npos && authority[colon] != ':')
      return why = "a bad host in " + url, std::nullopt;
  } else {
    t.host = authority.substr(0, colon);
  }
  if (colon != std::string::npos) {
    t.port = authority.substr(colon + 1);
    const bool digits = !t.port.empty() && t.port.size() <= 5 &&
                        std::all_of(t.port.begin(), t.port.end(), ::isdigit);
    if (!digits || std::stoi(t.port) < 1 || std::stoi(t.port) > 65535)
      return why = "a bad port in " + url, std::nullopt;
  }
  if (t.host.empty()) return why = "no host in " + url, std::nullopt;
  t.path = url.substr(end, url.find('#', end) - end);
  if (t.path.empty() || t.path.front() != '/') t.path.insert(0, "/");
  t.loopback = is_loopback_host(t.host);
  if (!t.tls && !t.loopback)
    return why = "http:// only to this machine (loopback); use https:// for " + url, std::nullopt;
  return t;
}

// One exchange's io_context and deadline: runs each asynchronous step to its end or to the
// deadline; then `cancel` ends it and its handler still runs before `run` returns.
struct runner {
  asio::io_context ioc;
  std::chrono::steady_clock::time_point deadline;

  template <class Start, class Cancel>
  error_code run(Start start, Cancel cancel) {
    std::optional<error_code> result;
    start([&result](error_code ec) { result = ec; });
    ioc.restart();
    while (!result && ioc.run_one_until(deadline) > 0) {
    }
    if (result) return *result;
    cancel();
    ioc.restart();
    while (!result && ioc.run_one() > 0) {
    }
    return asio::error::timed_out;
  }
};

std::unique_ptr<ssl::context> new_tls_context() {
  auto c = std::make_unique<ssl::context>(ssl::context::tls_client);
  c->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                 ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  error_code ignored;  // without a trust store every peer fails verification: safe
  c->set_default_verify_paths(ignored);
  c->set_verify_mode(ssl::verify_peer);
  return c;
}

// The system's trust store, read once for every exchange (an SSL_CTX is shared across threads).
ssl::context& shared_tls_context() {
  static const std::unique_ptr<ssl::context> context = new_tls_context();
  return *context;
}

template <class Stream>
error_code exchange(runner& r, Stream& stream, tcp::socket& socket,
                    http::request<http::string_body>& request,
                    http::response_parser<http::string_body>& parser) {
  const auto cancel = [&socket] {
    error_code ignored;
    socket.close(ignored);
  };
  error_code ec = r.run(
      [&](auto done) {
        http::async_write(stream, request, [done](error_code e, std::size_t) { done(e); });
      },
      cancel);
  if (ec) return ec;
  beast::flat_buffer buffer;
  return r.run(
      [&](auto done) {
        http::async_read(stream, buffer, parser, [done](error_code e, std::size_t) { done(e); });
      },
      cancel);
}

std::optional<http_response> unreachable(error& e, const std::string& url, const char* step,
                                         error_code ec, const http_limits& limits) {
  const std::string what =
      ec == asio::error::timed_out
          ? "no answer within " + std::to_string(limits.timeout.count()) + " ms"
          : ec.message();
  e = {"provider_unreachable", url + ": " + step + ": " + what};
  return std::nullopt;
}

}  // namespace

bool url_allowed(const std::string& url, std::string& why) {
  return parse_url(url, why).has_value();
}

std::optional<http_response> http_fetch(const http_request& request, error& e,
                                        const http_limits& limits) {
  std::string why;
  const auto t = parse_url(request.url, why);
  if (!t) return e = {"bad_settings", why}, std::nullopt;
  runner r;
  r.deadline = std::chrono::steady_clock::now() + limits.timeout;

  tcp::resolver resolver(r.ioc);
  tcp::resolver::results_type found;
  error_code ec = r.run(
      [&](auto done) {
        resolver.async_resolve(t->host, t->port,
                               [&found, done](error_code e2, tcp::resolver::results_type rs) {
                                 found = std::move(rs);
                                 done(e2);
                               });
      },
      [&] { resolver.cancel(); });
  if (ec) return unreachable(e, request.url, "name lookup", ec, limits);
  std::vector<tcp::endpoint> endpoints;
  for (const auto& entry : found)  // http:// never leaves the machine, whatever the name says
    if (t->tls || entry.endpoint().address().is_loopback()) endpoints.push_back(entry.endpoint());

  std::unique_ptr<ssl::context> own;
  if (!limits.extra_ca_pem.empty()) {
    own = new_tls_context();
    own->add_certificate_authority(asio::buffer(limits.extra_ca_pem), ec);
    if (ec) return e = {"bad_settings", "extra CA certificate: " + ec.message()}, std::nullopt;
  }
  beast::ssl_stream<tcp::socket> stream(r.ioc, own ? *own : shared_tls_context());
  tcp::socket& socket = beast::get_lowest_layer(stream);
  const auto close = [&socket] {
    error_code ignored;
    socket.close(ignored);
  };
  ec = r.run(
      [&](auto done) {
        asio::async_connect(socket, endpoints,
                            [done](error_code e2, const tcp::endpoint&) { done(e2); });
      },
      close);
  if (ec) return unreachable(e, request.url, "connect", ec, limits);

  http::request<http::string_body> req{
      request.method == "POST" ? http::verb::post : http::verb::get, t->path, 11};
  const bool v6 = t->host.find(':') != std::string::npos;
  const bool default_port = t->port == (t->tls ? "443" : "80");
  req.set(http::field::host,
          (v6 ? "[" + t->host + "]" : t->host) + (default_port ? "" : ":" + t->port));
  req.set(http::field::user_agent, "carcassonne-server");
  req.set(http::field::accept, "application/json");
  req.set(http::field::connection, "close");
  if (!request.content_type.empty()) req.set(http::field::content_type, request.content_type);
  if (!request.authorization.empty()) req.set(http::field::authorization, request.authorization);
  req.body() = request.body;
  req.prepare_payload();

  http::response_parser<http::string_body> parser;
  parser.header_limit(64 * 1024);
  parser.body_limit(limits.max_body);
  if (t->tls) {
    error_code not_address;
    asio::ip::make_address(t->host, not_address);
    // SNI names a host, never an address (RFC 6066 §3).
    if (not_address) SSL_set_tlsext_host_name(stream.native_handle(), t->host.c_str());
    stream.set_verify_callback(ssl::host_name_verification(t->host));
    ec = r.run(
        [&](auto done) {
          stream.async_handshake(ssl::stream_base::client, [done](error_code e2) { done(e2); });
        },
        close);
    if (ec) return unreachable(e, request.url, "TLS handshake", ec, limits);
    ec = exchange(r, stream, socket, req, parser);
  } else {
    ec = exchange(r, socket, socket, req, parser);
  }
  if (ec == http::error::body_limit)
    return e = {"bad_provider", request.url + ": an answer larger than " +
                                    std::to_string(limits.max_body) + " bytes"},
           std::nullopt;
  if (ec) return unreachable(e, request.url, "exchange", ec, limits);
  return http_response{static_cast<int>(parser.get().result_int()), parser.release().body()};
}

}  // namespace carcassonne::server::oidc
