// A TLS server on loopback for the OpenID Connect client's tests: a self-signed certificate made
// here for the names the test chooses (subjectAltName), and one fixed JSON answer per connection.
#pragma once
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <string>
#include <thread>

namespace carcassonne::testing {

struct oidc_certificate {
  std::string cert_pem, key_pem;
};

// A self-signed certificate valid for a day for `alt_names` ("IP:127.0.0.1", "DNS:localhost").
inline oidc_certificate oidc_self_signed(const std::string& alt_names) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* x = X509_new();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), -60);
  X509_gmtime_adj(X509_getm_notAfter(x), 86400);
  X509_set_pubkey(x, key);
  X509_NAME* name = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("oidc test"), -1, -1, 0);
  X509_set_issuer_name(x, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, x, x, nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, alt_names.c_str());
  X509_add_ext(x, san, -1);
  X509_EXTENSION_free(san);
  X509_sign(x, key, EVP_sha256());
  const auto pem = [](auto write) {
    BIO* bio = BIO_new(BIO_s_mem());
    write(bio);
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    std::string out(data, static_cast<std::size_t>(size));
    BIO_free(bio);
    return out;
  };
  oidc_certificate c{pem([&](BIO* b) { PEM_write_bio_X509(b, x); }), pem([&](BIO* b) {
                       PEM_write_bio_PrivateKey(b, key, nullptr, nullptr, 0, nullptr, nullptr);
                     })};
  X509_free(x);
  EVP_PKEY_free(key);
  return c;
}

// Answers every request on https://127.0.0.1:port/ with `body`, presenting `certificate`.
class oidc_tls_server {
 public:
  oidc_tls_server(const oidc_certificate& certificate, std::string body) : body_(std::move(body)) {
    namespace asio = boost::asio;
    tls_.use_certificate_chain(asio::buffer(certificate.cert_pem));
    tls_.use_private_key(asio::buffer(certificate.key_pem), asio::ssl::context::pem);
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    thread_ = std::thread([this] { serve(); });
  }
  ~oidc_tls_server() {
    stopping_ = true;
    boost::asio::ip::tcp::socket wake(ioc_);
    boost::system::error_code ignored;
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  int port() const { return acceptor_.local_endpoint().port(); }

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
      if (ec) continue;  // the client refused the certificate
      boost::beast::flat_buffer buffer;
      http::request<http::string_body> req;
      http::read(stream, buffer, req, ec);
      if (ec) continue;
      http::response<http::string_body> res{http::status::ok, 11};
      res.set(http::field::content_type, "application/json");
      res.body() = body_;
      res.prepare_payload();
      http::write(stream, res, ec);
      stream.shutdown(ec);
    }
  }

  std::string body_;
  boost::asio::io_context ioc_;
  boost::asio::ssl::context tls_{boost::asio::ssl::context::tls_server};
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace carcassonne::testing
