// A minimal OpenID Connect provider on loopback for the client's tests: a Beast HTTP server on its
// own thread that serves the discovery document, its keys (JWKS) and a token endpoint that checks
// the client (HTTP Basic), the single-use code, the redirect URI and the PKCE verifier against the
// challenge it was given. The test plays the browser: it hands the authorization URL's query to
// `authorize` and gets the code the provider would have sent back.
#pragma once
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <ctime>
#include <map>
#include <mutex>
#include <thread>

#include "oidc_support.hpp"

namespace carcassonne::testing {

// The decoded pairs of a query or a form body (a=b&c=d, percent-encoded, '+' a space).
inline std::map<std::string, std::string> oidc_form(const std::string& text) {
  std::map<std::string, std::string> out;
  const auto decode = [](const std::string& s) {
    std::string d;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] == '%' && i + 2 < s.size()) {
        d.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
        i += 2;
      } else {
        d.push_back(s[i] == '+' ? ' ' : s[i]);
      }
    return d;
  };
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t amp = std::min(text.find('&', at), text.size());
    const std::string pair = text.substr(at, amp - at);
    const std::size_t eq = pair.find('=');
    if (!pair.empty())
      out[decode(pair.substr(0, eq))] = eq == std::string::npos ? "" : decode(pair.substr(eq + 1));
    at = amp + 1;
  }
  return out;
}

inline std::string oidc_s256(const std::string& verifier) {
  unsigned char digest[32];
  unsigned int size = 0;
  EVP_Digest(verifier.data(), verifier.size(), digest, &size, EVP_sha256(), nullptr);
  return server::oidc::base64url_encode(std::string(reinterpret_cast<char*>(digest), size));
}

class oidc_provider {
 public:
  std::string client_id = "carcassonne", client_secret = "s3cret";

  oidc_provider() {
    namespace asio = boost::asio;
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    issuer_ = "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
    advertised_issuer_ = issuer_;
    keys_.push_back(oidc_make_key("RS256", "k1"));
    thread_ = std::thread([this] { serve(); });
  }
  ~oidc_provider() {
    stopping_ = true;
    boost::asio::ip::tcp::socket wake(ioc_);
    boost::system::error_code ignored;
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }

  const std::string& issuer() const { return issuer_; }
  void advertise_issuer(const std::string& issuer) {
    const std::lock_guard lock(mutex_);
    advertised_issuer_ = issuer;
  }
  void refuse_tokens() {
    const std::lock_guard lock(mutex_);
    refuse_ = true;
  }
  // A new signing key, published beside the old one from now on.
  void rotate_key(const std::string& alg, const std::string& kid) {
    const std::lock_guard lock(mutex_);
    keys_.push_back(oidc_make_key(alg, kid));
  }
  int jwks_reads() const { return jwks_reads_; }

  // The authorization endpoint's decision for the user who signed in: a single-use code.
  std::string authorize(const std::map<std::string, std::string>& q) {
    if (q.count("response_type") == 0 || q.at("response_type") != "code" ||
        q.at("client_id") != client_id || q.at("code_challenge_method") != "S256")
      return "";
    const std::lock_guard lock(mutex_);
    const std::string code = "code-" + std::to_string(++codes_);
    grants_[code] = {q.at("code_challenge"), q.at("nonce"), q.at("redirect_uri")};
    return code;
  }

 private:
  using request = boost::beast::http::request<boost::beast::http::string_body>;
  using response = boost::beast::http::response<boost::beast::http::string_body>;
  struct grant {
    std::string challenge, nonce, redirect_uri;
  };

  static response answer(int status, const nlohmann::json& body) {
    response r{static_cast<boost::beast::http::status>(status), 11};
    r.set(boost::beast::http::field::content_type, "application/json");
    r.body() = body.dump();
    r.prepare_payload();
    return r;
  }

  response handle(const request& req) {
    const std::lock_guard lock(mutex_);
    if (req.target() == "/.well-known/openid-configuration")
      return answer(200, {{"issuer", advertised_issuer_},
                          {"authorization_endpoint", issuer_ + "/authorize"},
                          {"token_endpoint", issuer_ + "/token"},
                          {"jwks_uri", issuer_ + "/jwks"},
                          {"code_challenge_methods_supported", {"plain", "S256"}}});
    if (req.target() == "/jwks") {
      ++jwks_reads_;
      return answer(200, nlohmann::json::parse(oidc_jwks(keys_)));
    }
    if (req.target() != "/token" || req.method() != boost::beast::http::verb::post)
      return answer(404, {{"error", "not_found"}});
    if (refuse_) return answer(400, {{"error", "invalid_grant"}, {"error_description", "refused"}});
    const std::string basic = client_id + ":" + client_secret;
    unsigned char b64[128];
    EVP_EncodeBlock(b64, reinterpret_cast<const unsigned char*>(basic.data()),
                    static_cast<int>(basic.size()));
    if (req[boost::beast::http::field::authorization] !=
        "Basic " + std::string(reinterpret_cast<char*>(b64)))
      return answer(401, {{"error", "invalid_client"}});
    auto form = oidc_form(req.body());
    const auto it = grants_.find(form["code"]);
    if (form["grant_type"] != "authorization_code" || it == grants_.end())
      return answer(400, {{"error", "invalid_grant"}, {"error_description", "unknown code"}});
    const grant g = it->second;
    grants_.erase(it);  // single use
    if (form["redirect_uri"] != g.redirect_uri || form["client_id"] != client_id)
      return answer(400, {{"error", "invalid_grant"}, {"error_description", "another client"}});
    if (oidc_s256(form["code_verifier"]) != g.challenge)
      return answer(400, {{"error", "invalid_grant"}, {"error_description", "PKCE verifier"}});
    const auto now = static_cast<std::int64_t>(std::time(nullptr));
    return answer(
        200,
        {{"access_token", "at"},
         {"token_type", "Bearer"},
         {"id_token", oidc_signed(oidc_claims(issuer_, client_id, g.nonce, now), keys_.back())}});
  }

  void serve() {
    namespace http = boost::beast::http;
    for (;;) {
      boost::asio::ip::tcp::socket socket(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (stopping_) return;
      boost::beast::flat_buffer buffer;
      request req;
      if (ec || (http::read(socket, buffer, req, ec), ec)) continue;
      response res = handle(req);
      http::write(socket, res, ec);
      socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    }
  }

  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  std::string issuer_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> jwks_reads_{0};
  std::mutex mutex_;
  std::string advertised_issuer_;
  bool refuse_ = false;
  int codes_ = 0;
  std::vector<oidc_key> keys_;
  std::map<std::string, grant> grants_;
  std::thread thread_;
};

}  // namespace carcassonne::testing
