// The other side of Web Push, written apart from the server's code: a browser's subscription keys
// (RFC 8291's user agent) and a push service that checks each message's VAPID token (RFC 8292:
// ES256 signature with the key in k=, audience, expiry, subject) and decrypts its body (RFC 8188,
// with HKDF written out with HMAC), as a real push service and browser would.
#pragma once
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include <ctime>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/base64.hpp"
#include "notify_https.hpp"

namespace carcassonne::testing {

inline std::string push_bytes(const unsigned char* p, std::size_t n) {
  return std::string(reinterpret_cast<const char*>(p), n);
}

inline std::string push_hmac(const std::string& key, const std::string& data) {
  unsigned char out[32];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &length);
  return push_bytes(out, length);
}

// HKDF (RFC 5869) with one block of output, written out.
inline std::string push_hkdf(const std::string& salt, const std::string& ikm,
                             const std::string& info, std::size_t length) {
  const std::string prk = push_hmac(salt, ikm);
  return push_hmac(prk, info + '\x01').substr(0, length);
}

// An EC public key of P-256 from its uncompressed point.
inline EVP_PKEY* push_public_key(const std::string& point) {
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, const_cast<char*>("prime256v1"),
                                       0),
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<char*>(point.data()),
                                        point.size()),
      OSSL_PARAM_construct_end()};
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
  EVP_PKEY* key = nullptr;
  if (EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1)
    key = nullptr;
  EVP_PKEY_CTX_free(ctx);
  return key;
}

inline std::string push_point(EVP_PKEY* key) {
  unsigned char out[65];
  std::size_t length = 0;
  EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out, sizeof out, &length);
  return push_bytes(out, length);
}

// A browser's subscription: its key pair and auth secret.
struct push_browser {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  std::string auth;
  push_browser() {
    unsigned char secret[16];
    RAND_bytes(secret, sizeof secret);
    auth = push_bytes(secret, sizeof secret);
  }
  ~push_browser() { EVP_PKEY_free(key); }
  push_browser(const push_browser&) = delete;
  push_browser& operator=(const push_browser&) = delete;
  std::string p256dh() const { return server::base64url_encode(push_point(key)); }
  std::string auth_b64() const { return server::base64url_encode(auth); }

  // The plaintext of an aes128gcm body (one record), or nothing with `why`.
  std::optional<std::string> decrypt(const std::string& body, std::string& why) const {
    if (body.size() < 21) return why = "short body", std::nullopt;
    const std::string salt = body.substr(0, 16);
    const auto idlen = static_cast<unsigned char>(body[20]);
    const std::uint32_t rs = (std::uint32_t(static_cast<unsigned char>(body[16])) << 24) |
                             (std::uint32_t(static_cast<unsigned char>(body[17])) << 16) |
                             (std::uint32_t(static_cast<unsigned char>(body[18])) << 8) |
                             std::uint32_t(static_cast<unsigned char>(body[19]));
    if (idlen != 65 || body.size() < 21u + idlen + 17) return why = "bad key id", std::nullopt;
    const std::string as_public = body.substr(21, idlen);
    const std::string record = body.substr(21 + idlen);
    if (record.size() > rs) return why = "a record larger than rs", std::nullopt;
    EVP_PKEY* peer = push_public_key(as_public);
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(nullptr, key, nullptr);
    unsigned char shared[32];
    std::size_t length = sizeof shared;
    const bool derived = peer && EVP_PKEY_derive_init(ctx) == 1 &&
                         EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
                         EVP_PKEY_derive(ctx, shared, &length) == 1;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    if (!derived) return why = "ECDH", std::nullopt;
    const std::string info = std::string("WebPush: info") + '\0' + push_point(key) + as_public;
    const std::string ikm = push_hkdf(auth, push_bytes(shared, length), info, 32);
    const std::string cek =
        push_hkdf(salt, ikm, std::string("Content-Encoding: aes128gcm") + '\0', 16);
    const std::string nonce =
        push_hkdf(salt, ikm, std::string("Content-Encoding: nonce") + '\0', 12);
    const std::string ciphertext = record.substr(0, record.size() - 16);
    std::string tag = record.substr(record.size() - 16);
    std::string plain(ciphertext.size(), '\0');
    EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
    int n = 0, tail = 0;
    const bool opened =
        EVP_DecryptInit_ex(c, EVP_aes_128_gcm(), nullptr,
                           reinterpret_cast<const unsigned char*>(cek.data()),
                           reinterpret_cast<const unsigned char*>(nonce.data())) == 1 &&
        EVP_DecryptUpdate(c, reinterpret_cast<unsigned char*>(plain.data()), &n,
                          reinterpret_cast<const unsigned char*>(ciphertext.data()),
                          static_cast<int>(ciphertext.size())) == 1 &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, tag.data()) == 1 &&
        EVP_DecryptFinal_ex(c, reinterpret_cast<unsigned char*>(plain.data()) + n, &tail) == 1;
    EVP_CIPHER_CTX_free(c);
    if (!opened) return why = "the tag does not verify", std::nullopt;
    // The last record: padding zeros after the delimiter 0x02 (RFC 8188 §2).
    const std::size_t end = plain.find_last_not_of('\0');
    if (end == std::string::npos || plain[end] != '\x02')
      return why = "no delimiter 0x02", std::nullopt;
    return plain.substr(0, end);
  }
};

// What a VAPID token says when its signature verifies; `why` otherwise.
inline std::optional<nlohmann::json> push_vapid_claims(const std::string& authorization,
                                                       std::string& public_key, std::string& why) {
  const std::string prefix = "vapid t=";
  const std::size_t k = authorization.find(", k=");
  if (authorization.rfind(prefix, 0) != 0 || k == std::string::npos)
    return why = "not a vapid authorization: " + authorization, std::nullopt;
  const std::string token = authorization.substr(prefix.size(), k - prefix.size());
  public_key = authorization.substr(k + 4);
  const std::size_t dot1 = token.find('.'), dot2 = token.rfind('.');
  if (dot1 == std::string::npos || dot1 == dot2) return why = "not a JWT", std::nullopt;
  const auto header = server::base64url_decode(token.substr(0, dot1));
  const auto claims = server::base64url_decode(token.substr(dot1 + 1, dot2 - dot1 - 1));
  const auto signature = server::base64url_decode(token.substr(dot2 + 1));
  const auto point = server::base64url_decode(public_key);
  if (!header || !claims || !signature || !point || signature->size() != 64)
    return why = "bad base64url", std::nullopt;
  const auto h = nlohmann::json::parse(*header, nullptr, false);
  if (!h.is_object() || h.value("alg", "") != "ES256" || h.value("typ", "") != "JWT")
    return why = "header " + *header, std::nullopt;
  ECDSA_SIG* sig = ECDSA_SIG_new();
  ECDSA_SIG_set0(
      sig, BN_bin2bn(reinterpret_cast<const unsigned char*>(signature->data()), 32, nullptr),
      BN_bin2bn(reinterpret_cast<const unsigned char*>(signature->data()) + 32, 32, nullptr));
  unsigned char* der = nullptr;
  const int der_length = i2d_ECDSA_SIG(sig, &der);
  ECDSA_SIG_free(sig);
  EVP_PKEY* key = push_public_key(*point);
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  const std::string input = token.substr(0, dot2);
  const bool valid =
      key && EVP_DigestVerifyInit(md, nullptr, EVP_sha256(), nullptr, key) == 1 &&
      EVP_DigestVerify(md, der, static_cast<std::size_t>(der_length),
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  EVP_MD_CTX_free(md);
  EVP_PKEY_free(key);
  OPENSSL_free(der);
  if (!valid) return why = "the signature does not verify", std::nullopt;
  auto c = nlohmann::json::parse(*claims, nullptr, false);
  if (!c.is_object()) return why = "claims " + *claims, std::nullopt;
  return c;
}

// A push service on loopback: checks and decrypts every message for `browser`, keeps what it
// read, and answers with the status the test chooses.
class push_service {
 public:
  struct received {
    std::string plaintext, ttl, urgency, topic, problem;
    nlohmann::json claims;
  };

  push_service(const oidc_certificate& certificate, const push_browser& browser,
               std::string vapid_public_key)
      : browser_(browser),
        vapid_key_(std::move(vapid_public_key)),
        server_(certificate, [this](const notify_request& r) { return handle(r); }) {}

  std::string endpoint(const std::string& id) const { return server_.url("/push/" + id); }
  std::string origin() const { return "https://127.0.0.1:" + std::to_string(server_.port()); }
  void answer_with(int status) {
    const std::lock_guard lock(mutex_);
    status_ = status;
  }
  std::vector<received> messages() const {
    const std::lock_guard lock(mutex_);
    return messages_;
  }

 private:
  notify_answer handle(const notify_request& r) {
    received m;
    m.ttl = std::string(r["TTL"]);
    m.urgency = std::string(r["Urgency"]);
    m.topic = std::string(r["Topic"]);
    std::string why, key;
    if (r.method() != boost::beast::http::verb::post)
      m.problem = "not a POST";
    else if (r["Content-Encoding"] != "aes128gcm")
      m.problem = "Content-Encoding";
    else if (auto claims = push_vapid_claims(std::string(r["Authorization"]), key, why))
      m.claims = *claims;
    else
      m.problem = "VAPID: " + why;
    if (m.problem.empty() && key != vapid_key_) m.problem = "k= is another key";
    if (m.problem.empty()) {
      if (auto plain = browser_.decrypt(r.body(), why))
        m.plaintext = *plain;
      else
        m.problem = "decryption: " + why;
    }
    const std::lock_guard lock(mutex_);
    messages_.push_back(m);
    return {m.problem.empty() ? status_ : 400, m.problem};
  }

  const push_browser& browser_;
  std::string vapid_key_;
  mutable std::mutex mutex_;
  int status_ = 201;
  std::vector<received> messages_;
  notify_https_server server_;  // last: stopped first
};

}  // namespace carcassonne::testing
