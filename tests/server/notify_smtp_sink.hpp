// An SMTP sink on loopback for the e-mail channel's tests, written apart from the server's
// client: it speaks RFC 5321 (EHLO, STARTTLS, AUTH PLAIN, MAIL, RCPT, DATA, QUIT), checks the
// order of the dialogue, undoes dot-stuffing and keeps each session for the test to read.
#pragma once
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "oidc_tls.hpp"

namespace carcassonne::testing {

// RFC 4648 base64 decoded by OpenSSL; nothing when malformed.
inline std::optional<std::string> smtp_sink_base64(const std::string& text) {
  if (text.empty() || text.size() % 4 != 0) return std::nullopt;
  std::string out(text.size(), '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  const std::size_t padding = text.size() - text.find_last_not_of('=') - 1;
  out.resize(static_cast<std::size_t>(n) - padding);
  return out;
}

struct smtp_sink_options {
  bool starttls = false;       // offer STARTTLS
  bool implicit_tls = false;   // TLS from the first byte (smtps://)
  std::string user, password;  // offer AUTH PLAIN and require these
  int rcpt_reply = 250;        // 451: try later; 550: no such user
  bool silent = false;         // accept and never answer
};

struct smtp_session {
  std::vector<std::string> commands;  // as received, without CRLF (AUTH's token kept)
  bool tls_at_mail = false;           // TLS was on when MAIL FROM came
  std::string auth_user, auth_password;
  std::string raw_data;  // what followed DATA, up to the final "."
  std::string message;   // raw_data with dot-stuffing undone
  std::string problem;   // the first step out of order, empty when none
};

class smtp_sink {
 public:
  smtp_sink(smtp_sink_options options, const oidc_certificate& certificate)
      : options_(std::move(options)) {
    namespace asio = boost::asio;
    tls_.use_certificate_chain(asio::buffer(certificate.cert_pem));
    tls_.use_private_key(asio::buffer(certificate.key_pem), asio::ssl::context::pem);
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    thread_ = std::thread([this] { serve(); });
  }
  ~smtp_sink() {
    stopping_ = true;
    boost::asio::ip::tcp::socket wake(ioc_);
    boost::system::error_code ignored;
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  int port() const { return acceptor_.local_endpoint().port(); }
  // The sessions recorded once at least `n` are (the client may have its answer before the
  // sink records the session it ends), or after 10 s whatever there is.
  std::vector<smtp_session> sessions(std::size_t n = 0) const {
    std::unique_lock lock(mutex_);
    recorded_.wait_for(lock, std::chrono::seconds(10), [&] { return sessions_.size() >= n; });
    return sessions_;
  }

 private:
  using tls_stream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;

  void serve() {
    for (;;) {
      tls_stream stream(ioc_, tls_);
      boost::system::error_code ec;
      acceptor_.accept(stream.next_layer(), ec);
      if (stopping_) return;
      if (ec) continue;
      if (options_.silent) {  // until the client gives up and closes
        char byte;
        while (!ec) stream.next_layer().read_some(boost::asio::buffer(&byte, 1), ec);
        continue;
      }
      smtp_session s;
      converse(stream, s);
      {
        const std::lock_guard lock(mutex_);
        sessions_.push_back(s);
      }
      recorded_.notify_all();
    }
  }

  void converse(tls_stream& stream, smtp_session& s) {
    namespace asio = boost::asio;
    boost::system::error_code ec;
    bool tls = false;
    std::string buffer;
    if (options_.implicit_tls) {
      stream.handshake(asio::ssl::stream_base::server, ec);
      if (ec) return void(s.problem = "TLS handshake: " + ec.message());
      tls = true;
    }
    const auto say = [&](const std::string& line) {
      const std::string out = line + "\r\n";
      if (tls)
        asio::write(stream, asio::buffer(out), ec);
      else
        asio::write(stream.next_layer(), asio::buffer(out), ec);
    };
    const auto hear = [&](std::string& line) {
      const std::size_t n =
          tls ? asio::read_until(stream, asio::dynamic_buffer(buffer), "\r\n", ec)
              : asio::read_until(stream.next_layer(), asio::dynamic_buffer(buffer), "\r\n", ec);
      if (ec) return false;
      line = buffer.substr(0, n - 2);
      buffer.erase(0, n);
      return true;
    };
    const auto fail = [&](const std::string& why) {
      if (s.problem.empty()) s.problem = why;
      say("503 " + why);
    };
    say("220 sink.test ESMTP");
    bool greeted = false, authed = options_.user.empty(), mail = false, rcpt = false;
    std::string line;
    while (hear(line)) {
      s.commands.push_back(line);
      if (line.rfind("EHLO ", 0) == 0) {
        greeted = true;
        say("250-sink.test");
        if (options_.starttls && !tls) say("250-STARTTLS");
        if (!options_.user.empty()) say("250-AUTH PLAIN");
        say("250 8BITMIME");
      } else if (line == "STARTTLS" && options_.starttls && !tls) {
        say("220 go ahead");
        stream.handshake(asio::ssl::stream_base::server, ec);
        if (ec) return void(s.problem = "STARTTLS handshake: " + ec.message());
        tls = true;
        greeted = false;  // RFC 3207 §4.2: the client starts over with EHLO
      } else if (line.rfind("AUTH PLAIN ", 0) == 0) {
        const auto token = smtp_sink_base64(line.substr(11));
        const std::size_t first = token ? token->find('\0', 1) : std::string::npos;
        if (!greeted || !token || first == std::string::npos) {
          fail("bad AUTH");
          continue;
        }
        s.auth_user = token->substr(1, first - 1);
        s.auth_password = token->substr(first + 1);
        authed = s.auth_user == options_.user && s.auth_password == options_.password;
        say(authed ? "235 accepted" : "535 refused");
      } else if (line.rfind("MAIL FROM:<", 0) == 0) {
        if (!greeted || !authed) {
          fail("MAIL before EHLO or AUTH");
          continue;
        }
        s.tls_at_mail = tls;
        mail = true;
        say("250 ok");
      } else if (line.rfind("RCPT TO:<", 0) == 0) {
        if (!mail) {
          fail("RCPT before MAIL");
          continue;
        }
        rcpt = options_.rcpt_reply == 250;
        say(std::to_string(options_.rcpt_reply) + (rcpt ? " ok" : " not now or not here"));
      } else if (line == "DATA") {
        if (!rcpt) {
          fail("DATA before RCPT");
          continue;
        }
        say("354 end with .");
        std::string data;
        while (hear(line) && line != ".") {
          s.raw_data += line + "\r\n";
          s.message += (line.rfind(".", 0) == 0 ? line.substr(1) : line) + "\r\n";
        }
        say("250 queued as 1");
        mail = rcpt = false;
      } else if (line == "QUIT") {
        say("221 bye");
        return;
      } else {
        fail("unexpected " + line);
      }
    }
  }

  smtp_sink_options options_;
  boost::asio::io_context ioc_;
  boost::asio::ssl::context tls_{boost::asio::ssl::context::tls_server};
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable recorded_;
  std::vector<smtp_session> sessions_;
  std::thread thread_;
};

}  // namespace carcassonne::testing
