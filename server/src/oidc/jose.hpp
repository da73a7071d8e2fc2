// The JOSE pieces an ID token needs (RFC 7515, 7517, 7518): base64url, the public key of a JWK as
// an OpenSSL key, and the check of an RS256 or ES256 signature. Plain functions; thread-safe.
#pragma once
#include <openssl/types.h>

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server::oidc {

// Base64url without padding (RFC 7515 §2).
std::string base64url_encode(std::string_view bytes);
// Strict: only the base64url alphabet, no padding, no stray bits (one text per byte string, so a
// signature cannot be re-encoded into a second valid token).
std::optional<std::string> base64url_decode(std::string_view text);
// Base64 with padding (RFC 4648 §4), as HTTP Basic authentication wants it.
std::string base64_encode(std::string_view bytes);

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
