#include "oidc/jose.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace carcassonne::server::oidc {

namespace {

struct bn_free {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
using bignum = std::unique_ptr<BIGNUM, bn_free>;

bignum to_bignum(const std::string& big_endian) {
  return bignum(BN_bin2bn(reinterpret_cast<const unsigned char*>(big_endian.data()),
                          static_cast<int>(big_endian.size()), nullptr));
}

// A member of `jwk` that is a base64url string, decoded; nothing when absent or malformed.
std::optional<std::string> member_bytes(const nlohmann::json& jwk, const char* name) {
  const auto it = jwk.find(name);
  if (it == jwk.end() || !it->is_string()) return std::nullopt;
  return base64url_decode(it->get_ref<const std::string&>());
}

// A public key from OpenSSL 3 parameters (EVP_PKEY_fromdata), of `type` ("RSA" or "EC").
public_key from_params(const char* type, OSSL_PARAM_BLD* bld) {
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr);
  EVP_PKEY* key = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1)
    key = nullptr;
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  return public_key(key);
}

public_key rsa_key(const nlohmann::json& jwk, std::string& why) {
  const auto n = member_bytes(jwk, "n"), e = member_bytes(jwk, "e");
  if (!n || !e || n->empty() || e->empty()) return why = "RSA key without a valid n or e", nullptr;
  const bignum bn_n = to_bignum(*n), bn_e = to_bignum(*e);
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  public_key key;
  if (bld && bn_n && bn_e && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n.get()) == 1 &&
      OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e.get()) == 1)
    key = from_params("RSA", bld);
  OSSL_PARAM_BLD_free(bld);
  if (!key) return why = "RSA key OpenSSL does not accept", nullptr;
  // RFC 7518 §3.3: a key of 2048 bits or larger.
  if (EVP_PKEY_get_bits(key.get()) < 2048) return why = "RSA key shorter than 2048 bits", nullptr;
  return key;
}

public_key ec_key(const nlohmann::json& jwk, std::string& why) {
  if (string_member(jwk, "crv") != "P-256") return why = "EC key not on P-256", nullptr;
  const auto x = member_bytes(jwk, "x"), y = member_bytes(jwk, "y");
  if (!x || !y || x->size() != 32 || y->size() != 32)
    return why = "EC key without 32-byte x and y", nullptr;
  const std::string point = '\x04' + *x + *y;  // uncompressed (SEC 1 §2.3.3)
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  public_key key;
  if (bld &&
      OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) ==
          1)
    key = from_params("EC", bld);
  OSSL_PARAM_BLD_free(bld);
  if (!key) return why = "EC key not a point of P-256", nullptr;
  // The point is on the curve and not the identity (an invalid-curve key must never verify).
  EVP_PKEY_CTX* check = EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr);
  const bool valid = check && EVP_PKEY_public_check(check) == 1;
  EVP_PKEY_CTX_free(check);
  if (!valid) return why = "EC key not a point of P-256", nullptr;
  return key;
}

// An ES256 signature (r||s, 32 bytes each; RFC 7518 §3.4) as the DER ECDSA-Sig-Value OpenSSL
// verifies; empty when it is not 64 bytes.
std::string ecdsa_der(std::string_view rs) {
  if (rs.size() != 64) return {};
  ECDSA_SIG* sig = ECDSA_SIG_new();
  BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(rs.data()), 32, nullptr);
  BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(rs.data()) + 32, 32, nullptr);
  std::string der;
  if (sig && r && s && ECDSA_SIG_set0(sig, r, s) == 1) {
    r = s = nullptr;  // owned by sig now
    unsigned char* out = nullptr;
    const int length = i2d_ECDSA_SIG(sig, &out);
    if (length > 0)
      der.assign(reinterpret_cast<const char*>(out), static_cast<std::size_t>(length));
    OPENSSL_free(out);
  }
  BN_free(r);
  BN_free(s);
  ECDSA_SIG_free(sig);
  return der;
}

}  // namespace

std::string string_member(const nlohmann::json& object, const char* name) {
  if (!object.is_object()) return {};
  const auto it = object.find(name);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void pkey_free::operator()(EVP_PKEY* key) const {
  EVP_PKEY_free(key);
}

public_key jwk_public_key(const nlohmann::json& jwk, const std::string& alg, std::string& why) {
  if (!jwk.is_object()) return why = "a key that is not an object", nullptr;
  const auto own_alg = jwk.find("alg");
  if (own_alg != jwk.end() && (!own_alg->is_string() || *own_alg != alg))
    return why = "key made for another alg than " + alg, nullptr;
  const auto use = jwk.find("use");
  if (use != jwk.end() && (!use->is_string() || *use != "sig"))
    return why = "key not for signatures", nullptr;
  const std::string kty = string_member(jwk, "kty");
  if (alg == "RS256" && kty == "RSA") return rsa_key(jwk, why);
  if (alg == "ES256" && kty == "EC") return ec_key(jwk, why);
  return why = "alg " + alg + " does not match the key's kty " + kty, nullptr;
}

bool jws_signature_valid(EVP_PKEY* key, const std::string& alg, std::string_view input,
                         std::string_view signature) {
  std::string der;
  if (alg == "ES256") {
    der = ecdsa_der(signature);
    if (der.empty()) return false;
    signature = der;
  } else if (alg != "RS256") {
    return false;
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  const bool ok =
      ctx && EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
      EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(signature.data()),
                       signature.size(), reinterpret_cast<const unsigned char*>(input.data()),
                       input.size()) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

}  // namespace carcassonne::server::oidc
