// Keys and tokens for the OpenID Connect tests, made here with OpenSSL: an RSA or P-256 key, its
// JWK, a JWKS document, and a compact JWS signed with the key (or forged as an attacker would).
#pragma once
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <ctime>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "oidc/jose.hpp"

namespace carcassonne::testing {

struct oidc_key {
  std::shared_ptr<EVP_PKEY> key;
  std::string alg, kid;  // RS256 (RSA 2048) or ES256 (P-256)
  nlohmann::json jwk;
};

inline std::string oidc_bn_bytes(EVP_PKEY* key, const char* name, int pad) {
  BIGNUM* bn = nullptr;
  EVP_PKEY_get_bn_param(key, name, &bn);
  std::string out(static_cast<std::size_t>(pad > 0 ? pad : BN_num_bytes(bn)), '\0');
  BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(out.size()));
  BN_free(bn);
  return out;
}

inline oidc_key oidc_make_key(const std::string& alg, const std::string& kid) {
  using carcassonne::server::oidc::base64url_encode;
  oidc_key k{nullptr, alg, kid, {}};
  if (alg == "RS256") {
    k.key.reset(EVP_RSA_gen(2048), EVP_PKEY_free);
    k.jwk = {{"kty", "RSA"},
             {"n", base64url_encode(oidc_bn_bytes(k.key.get(), OSSL_PKEY_PARAM_RSA_N, 0))},
             {"e", base64url_encode(oidc_bn_bytes(k.key.get(), OSSL_PKEY_PARAM_RSA_E, 0))}};
  } else {
    k.key.reset(EVP_EC_gen("P-256"), EVP_PKEY_free);
    k.jwk = {{"kty", "EC"},
             {"crv", "P-256"},
             {"x", base64url_encode(oidc_bn_bytes(k.key.get(), OSSL_PKEY_PARAM_EC_PUB_X, 32))},
             {"y", base64url_encode(oidc_bn_bytes(k.key.get(), OSSL_PKEY_PARAM_EC_PUB_Y, 32))}};
  }
  if (!kid.empty()) k.jwk["kid"] = kid;
  k.jwk["use"] = "sig";
  return k;
}

inline std::string oidc_jwks(const std::vector<oidc_key>& keys) {
  nlohmann::json doc = {{"keys", nlohmann::json::array()}};
  for (const auto& k : keys) doc["keys"].push_back(k.jwk);
  return doc.dump();
}

// The JWS signature of `input` by `k`: PKCS#1 v1.5, or ECDSA turned from DER into r||s.
inline std::string oidc_signature(const oidc_key& k, const std::string& input) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::size_t length = 0;
  EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, k.key.get());
  const auto* in = reinterpret_cast<const unsigned char*>(input.data());
  EVP_DigestSign(ctx, nullptr, &length, in, input.size());
  std::string sig(length, '\0');
  EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &length, in, input.size());
  EVP_MD_CTX_free(ctx);
  sig.resize(length);
  if (k.alg != "ES256") return sig;
  const auto* p = reinterpret_cast<const unsigned char*>(sig.data());
  ECDSA_SIG* der = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
  std::string rs(64, '\0');
  BN_bn2binpad(ECDSA_SIG_get0_r(der), reinterpret_cast<unsigned char*>(rs.data()), 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(der), reinterpret_cast<unsigned char*>(rs.data()) + 32, 32);
  ECDSA_SIG_free(der);
  return rs;
}

inline std::string oidc_token(const nlohmann::json& header, const nlohmann::json& claims,
                              const oidc_key& k) {
  using carcassonne::server::oidc::base64url_encode;
  const std::string input = base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
  return input + "." + base64url_encode(oidc_signature(k, input));
}

// A token signed by `k` as a provider signs it: its alg and kid in the header.
inline std::string oidc_signed(const nlohmann::json& claims, const oidc_key& k) {
  nlohmann::json header = {{"alg", k.alg}, {"typ", "JWT"}};
  if (!k.kid.empty()) header["kid"] = k.kid;
  return oidc_token(header, claims, k);
}

// The classic confusion: HS256 keyed with the provider's public key (its PEM, which anyone has).
inline std::string oidc_hs256_with_public_key(const nlohmann::json& claims, const oidc_key& k) {
  using carcassonne::server::oidc::base64url_encode;
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PUBKEY(bio, k.key.get());
  char* pem = nullptr;
  const long pem_size = BIO_get_mem_data(bio, &pem);
  const nlohmann::json header = {{"alg", "HS256"}, {"typ", "JWT"}, {"kid", k.kid}};
  const std::string input = base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
  unsigned char mac[32];
  unsigned int mac_size = 0;
  HMAC(EVP_sha256(), pem, static_cast<int>(pem_size),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &mac_size);
  BIO_free(bio);
  return input + "." + base64url_encode(std::string(reinterpret_cast<char*>(mac), mac_size));
}

// The claims a provider puts in an ID token for this client and this sign-in.
inline nlohmann::json oidc_claims(const std::string& issuer, const std::string& client_id,
                                  const std::string& nonce, std::int64_t now) {
  return {{"iss", issuer}, {"aud", client_id}, {"sub", "user-42"}, {"nonce", nonce},
          {"iat", now},    {"exp", now + 300}, {"name", "Ada L."}, {"preferred_username", "ada"}};
}

}  // namespace carcassonne::testing
