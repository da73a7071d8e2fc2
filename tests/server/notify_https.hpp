// An HTTPS server on loopback for the notification channels' tests (a push service, a webhook
// receiver): a certificate from oidc_tls.hpp's test CA, one request per connection, answered by
// the test's handler, which may also hold the answer back (a slow receiver).
#pragma once
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "oidc_tls.hpp"

namespace carcassonne::testing {

using notify_request = boost::beast::http::request<boost::beast::http::string_body>;

struct notify_answer {
  int status = 201;
  std::string body;
  std::string location;                    // a Location header (redirects)
  std::chrono::milliseconds hold_back{0};  // wait this long before answering
};

class notify_https_server {
 public:
  using handler = std::function<notify_answer(const notify_request&)>;

  notify_https_server(const oidc_certificate& certificate, handler h) : handler_(std::move(h)) {
    namespace asio = boost::asio;
    tls_.use_certificate_chain(asio::buffer(certificate.cert_pem));
    tls_.use_private_key(asio::buffer(certificate.key_pem), asio::ssl::context::pem);
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    thread_ = std::thread([this] { serve(); });
  }
  ~notify_https_server() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    woken_.notify_all();
    boost::asio::ip::tcp::socket wake(ioc_);
    boost::system::error_code ignored;
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  int port() const { return acceptor_.local_endpoint().port(); }
  std::string url(const std::string& path) const {
    return "https://127.0.0.1:" + std::to_string(port()) + path;
  }
  // The requests read so far (their headers and bodies).
  std::vector<notify_request> requests() const {
    const std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void serve() {
    namespace http = boost::beast::http;
    for (;;) {
      boost::asio::ssl::stream<boost::asio::ip::tcp::socket> stream(ioc_, tls_);
      boost::system::error_code ec;
      acceptor_.accept(stream.next_layer(), ec);
      if (stopping_) return;
      if (ec) continue;
      stream.handshake(boost::asio::ssl::stream_base::server, ec);
      if (ec) continue;
      boost::beast::flat_buffer buffer;
      notify_request req;
      http::read(stream, buffer, req, ec);
      if (ec) continue;
      {
        const std::lock_guard lock(mutex_);
        requests_.push_back(req);
      }
      const notify_answer a = handler_(req);
      if (a.hold_back.count() > 0) {
        std::unique_lock lock(mutex_);
        woken_.wait_for(lock, a.hold_back, [this] { return stopping_.load(); });
      }
      http::response<http::string_body> res{static_cast<http::status>(a.status), 11};
      if (!a.location.empty()) res.set(http::field::location, a.location);
      res.body() = a.body;
      res.prepare_payload();
      http::write(stream, res, ec);
      stream.shutdown(ec);
    }
  }

  handler handler_;
  boost::asio::io_context ioc_;
  boost::asio::ssl::context tls_{boost::asio::ssl::context::tls_server};
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  mutable std::mutex mutex_;
  std::condition_variable woken_;
  std::atomic<bool> stopping_{false};
  std::vector<notify_request> requests_;
  std::thread thread_;
};

}  // namespace carcassonne::testing
