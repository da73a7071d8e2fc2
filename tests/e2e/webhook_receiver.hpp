// A webhook receiver the test starts on a loopback port: it answers every POST with `status`
// and keeps what it received (headers with lower-case names, body), for the notification tests.
#pragma once
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace e2e {

class webhook_receiver {
 public:
  struct received {
    std::map<std::string, std::string> headers;
    std::string target, body;
  };

  // `observe`, when given, sees each request as it arrives, on the receiver's thread.
  explicit webhook_receiver(std::function<void(const received&)> observe = {})
      : observe_(std::move(observe)),
        acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] { serve(); });
  }
  ~webhook_receiver() {
    stopping_ = true;
    boost::system::error_code ec;
    boost::asio::ip::tcp::socket poke(io_);
    poke.connect(acceptor_.local_endpoint(), ec);  // wakes the accept
    thread_.join();
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  std::vector<received> seen() {
    std::lock_guard lock(mutex_);
    return seen_;
  }
  std::atomic<int> status{200};

 private:
  void serve() {
    namespace http = boost::beast::http;
    while (!stopping_) {
      boost::system::error_code ec;
      boost::asio::ip::tcp::socket s(io_);
      acceptor_.accept(s, ec);
      if (ec || stopping_) continue;
      boost::beast::flat_buffer buffer;
      http::request<http::string_body> req;
      http::read(s, buffer, req, ec);
      if (ec) continue;
      received r;
      r.target = std::string(req.target());
      r.body = req.body();
      for (const auto& f : req) {
        std::string name(f.name_string());
        for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        r.headers[name] = std::string(f.value());
      }
      if (observe_) observe_(r);
      {
        std::lock_guard lock(mutex_);
        seen_.push_back(std::move(r));
      }
      http::response<http::string_body> res{static_cast<http::status>(status.load()), 11};
      res.body() = "ok";
      res.prepare_payload();
      http::write(s, res, ec);
    }
  }

  std::function<void(const received&)> observe_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::vector<received> seen_;
  std::thread thread_;
};

}  // namespace e2e
