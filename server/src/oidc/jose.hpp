// The JOSE pieces an ID token needs (RFC 7515, 7517, 7518): base64url, the public key of a JWK as
// an OpenSSL key, and the check of an RS256 or ES256 signature. Plain functions; thread-safe.
#pragma once
#include <openssl/types.h>

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/base64.hpp"

namespace carcassonne::server::oidc {

// Base64 and base64url (base/base64.hpp), where the JOSE code has always found them.
using server::base64_encode;
using server::base64url_decode;
using server::base64url_encode;

// The text of `object`'s member `name`; empty when absent or not a string (where nlohmann's
// value() would throw).
std::string string_member(const nlohmann::json& object, const char* name);

struct pkey_free {
  void operator()(EVP_PKEY* key) const;
};
using public_key = std::unique_ptr<EVP_PKEY, pkey_free>;

// The public key of `jwk` (an object of a JWKS) for a token signed with `alg`: "RS256" needs kty
// RSA (n, e; at least 2048 bits), "ES256" kty EC on crv P-256 (x, y on the curve). A key that
// says its own `alg` or `use` must agree. Empty, with `why`, otherwise.
public_key jwk_public_key(const nlohmann::json& jwk, const std::string& alg, std::string& why);

// Whether `signature`, as a JWS carries it (RSASSA-PKCS1-v1_5 for RS256, r||s for ES256), signs
// `input` (the token's "header.payload" text) with `key` under SHA-256.
bool jws_signature_valid(EVP_PKEY* key, const std::string& alg, std::string_view input,
                         std::string_view signature);

}  // namespace carcassonne::server::oidc
