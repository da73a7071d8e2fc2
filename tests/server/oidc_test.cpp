// The ID token check (oidc/oidc_client.hpp, verify_id_token) against keys and tokens the test
// makes with OpenSSL: good RS256 and ES256 tokens pass; forged, confused, foreign, stale and
// replayed tokens are refused, each with the code bad_id_token and a message naming the check.
#include <doctest/doctest.h>

#include "oidc/oidc_client.hpp"
#include "oidc_support.hpp"

// A namespace of their own: in a unity build these using-declarations reach no other file.
namespace oidc_tests {

// Declarations, not a using-directive: another file of the unity batch may bring
// `carcassonne::error`.
using carcassonne::server::oidc::base64_encode;
using carcassonne::server::oidc::base64url_decode;
using carcassonne::server::oidc::base64url_encode;
using carcassonne::server::oidc::error;
using carcassonne::server::oidc::verify_id_token;
using carcassonne::testing::oidc_claims;
using carcassonne::testing::oidc_jwks;
using carcassonne::testing::oidc_key;
using carcassonne::testing::oidc_make_key;
using carcassonne::testing::oidc_signed;
using nlohmann::json;

namespace {

const std::string oidc_issuer = "https://id.example.org";
const std::string oidc_client_id = "carcassonne";
const std::string oidc_nonce = "n-0S6_WzA2Mj";
constexpr std::int64_t oidc_now = 1'800'000'000;

struct oidc_keys {
  oidc_key rsa = oidc_make_key("RS256", "rsa1");
  oidc_key ec = oidc_make_key("ES256", "ec1");
  std::string jwks = oidc_jwks({rsa, ec});
};

const oidc_keys& oidc_fixture() {
  static const oidc_keys keys;
  return keys;
}

json oidc_good_claims() {
  return oidc_claims(oidc_issuer, oidc_client_id, oidc_nonce, oidc_now);
}

// The check's answer: "" when the token passes, else the code and the message.
std::string oidc_refusal(const std::string& jwt, const std::string& jwks = oidc_fixture().jwks,
                         const std::string& nonce = oidc_nonce) {
  error e;
  const auto who = verify_id_token(jwt, jwks, oidc_issuer, oidc_client_id, nonce, oidc_now, e);
  if (who) return "";
  return e.code + ": " + e.message;
}

}  // namespace

TEST_CASE("oidc: base64url is strict and round-trips") {
  CHECK(base64url_encode("\xfb\xff") == "-_8");
  CHECK(base64url_decode("-_8") == std::optional<std::string>("\xfb\xff"));
  CHECK(base64url_encode("") == "");
  CHECK_FALSE(base64url_decode("-_9"));  // stray low bits: a second spelling of the same bytes
  CHECK_FALSE(base64url_decode("ab=="));
  CHECK_FALSE(base64url_decode("a+/b"));
  CHECK_FALSE(base64url_decode("abcde"));
  CHECK(base64_encode("ab:c") == "YWI6Yw==");
}

TEST_CASE("oidc: a good RS256 token and a good ES256 token give the subject and the name") {
  const auto& k = oidc_fixture();
  error e;
  const auto rsa = verify_id_token(oidc_signed(oidc_good_claims(), k.rsa), k.jwks, oidc_issuer,
                                   oidc_client_id, oidc_nonce, oidc_now, e);
  REQUIRE(rsa);
  CHECK(rsa->issuer == oidc_issuer);
  CHECK(rsa->subject == "user-42");
  CHECK(rsa->name == "ada");
  json claims = oidc_good_claims();
  claims.erase("preferred_username");
  const auto ec = verify_id_token(oidc_signed(claims, k.ec), k.jwks, oidc_issuer, oidc_client_id,
                                  oidc_nonce, oidc_now, e);
  REQUIRE(ec);
  CHECK(ec->subject == "user-42");
  CHECK(ec->name == "Ada L.");
  // One key and no kid: the key is the only one there is.
  const oidc_key lone = oidc_make_key("ES256", "");
  CHECK(oidc_refusal(oidc_signed(oidc_good_claims(), lone), oidc_jwks({lone})) == "");
}

TEST_CASE("oidc: a forged signature and a token of another key under the same kid are refused") {
  const auto& k = oidc_fixture();
  for (const oidc_key* key : {&k.rsa, &k.ec}) {
    const std::string good = oidc_signed(oidc_good_claims(), *key);
    const auto dot = good.rfind('.');
    std::string signature = *base64url_decode(good.substr(dot + 1));
    signature[signature.size() / 2] ^= 0x01;
    const std::string forged = good.substr(0, dot + 1) + base64url_encode(signature);
    CHECK(oidc_refusal(forged) == "bad_id_token: signature does not verify");
    // The claims changed under the provider's signature.
    json claims = oidc_good_claims();
    claims["sub"] = "admin";
    const std::string swapped =
        good.substr(0, good.find('.') + 1) + base64url_encode(claims.dump()) + good.substr(dot);
    CHECK(oidc_refusal(swapped) == "bad_id_token: signature does not verify");
    const oidc_key impostor = oidc_make_key(key->alg, key->kid);
    CHECK(oidc_refusal(oidc_signed(oidc_good_claims(), impostor)) ==
          "bad_id_token: signature does not verify");
  }
}

TEST_CASE(
    "oidc: alg none, HS256 keyed with the public key and an alg against the kty are refused") {
  using carcassonne::testing::oidc_hs256_with_public_key;
  const auto& k = oidc_fixture();
  const std::string none = base64url_encode(R"({"alg":"none","kid":"rsa1"})") + "." +
                           base64url_encode(oidc_good_claims().dump()) + ".";
  CHECK(oidc_refusal(none) == "bad_id_token: alg 'none' is not RS256 or ES256");
  CHECK(oidc_refusal(oidc_hs256_with_public_key(oidc_good_claims(), k.rsa)) ==
        "bad_id_token: alg 'HS256' is not RS256 or ES256");
  // An RS256 header naming the EC key, signed by the RSA key.
  const std::string confused = carcassonne::testing::oidc_token({{"alg", "RS256"}, {"kid", "ec1"}},
                                                                oidc_good_claims(), k.rsa);
  CHECK(oidc_refusal(confused) ==
        "bad_id_token: the provider's key: alg RS256 does not match the key's kty EC");
  CHECK(oidc_refusal(oidc_signed(oidc_good_claims(), oidc_make_key("RS256", "rsa9"))) ==
        "bad_id_token: no key of the provider has this kid");
  CHECK(oidc_refusal("a.b") == "bad_id_token: not a compact JWS (header.payload.signature)");
  CHECK(oidc_refusal(oidc_signed(oidc_good_claims(), k.rsa) + ".x") ==
        "bad_id_token: not a compact JWS (header.payload.signature)");
}

TEST_CASE("oidc: another issuer, another audience, an expired or future token are refused") {
  const auto& k = oidc_fixture();
  const auto with = [&](const char* name, const json& value) {
    json claims = oidc_good_claims();
    claims[name] = value;
    return oidc_refusal(oidc_signed(claims, k.rsa));
  };
  CHECK(with("iss", "https://evil.example.org") ==
        "bad_id_token: iss is not the provider https://id.example.org");
  CHECK(with("aud", "another-client") == "bad_id_token: aud does not name this client");
  CHECK(with("aud", json::array({"another-client"})) ==
        "bad_id_token: aud does not name this client");
  // Several audiences: the token must have been issued to this client (azp).
  CHECK(with("aud", json::array({"another-client", oidc_client_id})) ==
        "bad_id_token: azp is not this client");
  json several = oidc_good_claims();
  several["aud"] = json::array({"another-client", oidc_client_id});
  several["azp"] = oidc_client_id;
  CHECK(oidc_refusal(oidc_signed(several, k.rsa)) == "");
  CHECK(with("azp", "another-client") == "bad_id_token: azp is not this client");
  // A minute of leeway each way, no more.
  CHECK(with("exp", oidc_now - 59) == "");
  CHECK(with("exp", oidc_now - 60) == "bad_id_token: expired (exp)");
  CHECK(with("iat", oidc_now + 60) == "");
  CHECK(with("iat", oidc_now + 61) == "bad_id_token: issued in the future (iat)");
  CHECK(with("exp", "never") == "bad_id_token: no exp");
  CHECK(with("sub", "") == "bad_id_token: no valid sub");
}

TEST_CASE("oidc: a token replayed from another sign-in (another nonce) is refused") {
  const auto& k = oidc_fixture();
  const std::string token = oidc_signed(oidc_good_claims(), k.ec);
  CHECK(oidc_refusal(token) == "");
  CHECK(oidc_refusal(token, k.jwks, "another-sign-in-nonce") ==
        "bad_id_token: nonce is not this sign-in's");
  CHECK(oidc_refusal(token, k.jwks, "") == "bad_id_token: nonce is not this sign-in's");
  json claims = oidc_good_claims();
  claims.erase("nonce");
  CHECK(oidc_refusal(oidc_signed(claims, k.ec)) == "bad_id_token: nonce is not this sign-in's");
}

TEST_CASE("oidc: keys that are too weak or off the curve are refused") {
  oidc_key ec = oidc_make_key("ES256", "ec1");
  const std::string token = oidc_signed(oidc_good_claims(), ec);
  ec.jwk["y"] = ec.jwk["x"];  // (x, x) is not a point of P-256
  CHECK(oidc_refusal(token, oidc_jwks({ec})) ==
        "bad_id_token: the provider's key: EC key not a point of P-256");
  oidc_key rsa = oidc_make_key("RS256", "rsa1");
  rsa.key.reset(EVP_RSA_gen(1024), EVP_PKEY_free);
  rsa.jwk["n"] = base64url_encode(
      carcassonne::testing::oidc_bn_bytes(rsa.key.get(), OSSL_PKEY_PARAM_RSA_N, 0));
  CHECK(oidc_refusal(oidc_signed(oidc_good_claims(), rsa), oidc_jwks({rsa})) ==
        "bad_id_token: the provider's key: RSA key shorter than 2048 bits");
  rsa.jwk["use"] = "enc";
  CHECK(oidc_refusal(oidc_signed(oidc_good_claims(), rsa), oidc_jwks({rsa})) ==
        "bad_id_token: the provider's key: key not for signatures");
}

}  // namespace oidc_tests
