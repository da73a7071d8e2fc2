// The check of an ID token (OpenID Connect Core §3.1.3.7): its signature against the provider's
// keys, then its claims.
#include "oidc/id_token.hpp"

#include <nlohmann/json.hpp>

#include "base/crypto.hpp"
#include "oidc/jose.hpp"
#include "oidc/oidc_client.hpp"

namespace carcassonne::server::oidc {

namespace {

using nlohmann::json;

// Larger than any real ID token; a bound on what is decoded and parsed.
constexpr std::size_t max_token_size = 64 * 1024;
// Clock skew allowed between the provider and this server, in seconds.
constexpr double leeway_s = 60;

struct parts {
  std::string header_b64, payload_b64, signature_b64;
};

std::optional<parts> split(const std::string& jwt) {
  const auto a = jwt.find('.');
  if (a == std::string::npos) return std::nullopt;
  const auto b = jwt.find('.', a + 1);
  if (b == std::string::npos || jwt.find('.', b + 1) != std::string::npos) return std::nullopt;
  return parts{jwt.substr(0, a), jwt.substr(a + 1, b - a - 1), jwt.substr(b + 1)};
}

// A base64url part that decodes to a JSON object; a discarded value otherwise.
json decoded_object(const std::string& b64) {
  const auto text = base64url_decode(b64);
  if (!text) return json(json::value_t::discarded);
  json j = json::parse(*text, nullptr, false);
  return j.is_object() ? j : json(json::value_t::discarded);
}

json header_of(const std::string& jwt) {
  const auto p = jwt.size() <= max_token_size ? split(jwt) : std::nullopt;
  return p ? decoded_object(p->header_b64) : json(json::value_t::discarded);
}

// The keys of the JWKS document whose kid is `kid` (all of them when the token names none).
std::vector<json> candidate_keys(const json& jwks, const json& header) {
  std::vector<json> out;
  if (!jwks.is_object() || !jwks.contains("keys") || !jwks["keys"].is_array()) return out;
  const auto kid = header.find("kid");
  for (const auto& key : jwks["keys"])
    if (kid == header.end() || (key.is_object() && key.contains("kid") && key["kid"] == *kid))
      out.push_back(key);
  return out;
}

std::optional<identity> refuse(error& e, std::string message) {
  e = {"bad_id_token", std::move(message)};
  return std::nullopt;
}

bool audience_matches(const json& aud, const std::string& audience) {
  if (aud.is_string()) return aud == audience;
  if (!aud.is_array()) return false;
  for (const auto& a : aud)
    if (a.is_string() && a == audience) return true;
  return false;
}

// The claims of a correctly signed token (OpenID Connect Core §3.1.3.7, 2 to 11).
std::optional<identity> check_claims(const json& claims, const std::string& issuer,
                                     const std::string& audience, const std::string& nonce,
                                     std::int64_t now_s, error& e) {
  const auto text = [&](const char* name) { return string_member(claims, name); };
  if (text("iss") != issuer) return refuse(e, "iss is not the provider " + issuer);
  const json aud = claims.value("aud", json());
  if (!audience_matches(aud, audience)) return refuse(e, "aud does not name this client");
  // Several audiences, or an azp at all: the party the token was issued to must be this client.
  if ((aud.is_array() && aud.size() > 1) || claims.contains("azp"))
    if (text("azp") != audience) return refuse(e, "azp is not this client");
  const auto exp = claims.find("exp"), iat = claims.find("iat");
  if (exp == claims.end() || !exp->is_number()) return refuse(e, "no exp");
  if (iat == claims.end() || !iat->is_number()) return refuse(e, "no iat");
  const auto now = static_cast<double>(now_s);
  if (!(exp->get<double>() > now - leeway_s)) return refuse(e, "expired (exp)");
  if (!(iat->get<double>() <= now + leeway_s)) return refuse(e, "issued in the future (iat)");
  // The nonce ties the token to this sign-in: a token replayed from another one carries another.
  const std::string token_nonce = text("nonce");
  if (nonce.empty() || token_nonce.empty() || !equal_constant_time(token_nonce, nonce))
    return refuse(e, "nonce is not this sign-in's");
  const std::string subject = text("sub");
  if (subject.empty() || subject.size() > 255) return refuse(e, "no valid sub");
  std::string name = text("preferred_username");
  if (name.empty()) name = text("name");
  return identity{issuer, subject, name};
}

}  // namespace

bool names_unknown_key(const std::string& jwt, const std::string& jwks) {
  const json header = header_of(jwt);
  if (header.is_discarded() || !header.contains("kid")) return false;
  return candidate_keys(json::parse(jwks, nullptr, false), header).empty();
}

std::optional<identity> verify_id_token(const std::string& jwt, const std::string& jwks,
                                        const std::string& issuer, const std::string& audience,
                                        const std::string& nonce, std::int64_t now_s, error& e) {
  const auto p = jwt.size() <= max_token_size ? split(jwt) : std::nullopt;
  if (!p) return refuse(e, "not a compact JWS (header.payload.signature)");
  const json header = decoded_object(p->header_b64);
  if (header.is_discarded()) return refuse(e, "header is not base64url JSON");
  const std::string alg = string_member(header, "alg");
  // Only asymmetric algorithms: `none` and HS256 (keyed with the public key) are forgeries.
  if (alg != "RS256" && alg != "ES256") return refuse(e, "alg '" + alg + "' is not RS256 or ES256");
  if (header.contains("crit")) return refuse(e, "crit names extensions not understood");
  const auto signature = base64url_decode(p->signature_b64);
  if (!signature) return refuse(e, "signature is not base64url");
  const json keys = json::parse(jwks, nullptr, false);
  const auto candidates = candidate_keys(keys, header);
  if (candidates.empty()) return refuse(e, "no key of the provider has this kid");
  if (candidates.size() > 1)
    return refuse(e, "several keys fit (a kid named twice, or none named)");
  std::string why;
  const public_key key = jwk_public_key(candidates.front(), alg, why);
  if (!key) return refuse(e, "the provider's key: " + why);
  const std::string input = p->header_b64 + '.' + p->payload_b64;
  if (!jws_signature_valid(key.get(), alg, input, *signature))
    return refuse(e, "signature does not verify");
  const json claims = decoded_object(p->payload_b64);
  if (claims.is_discarded()) return refuse(e, "payload is not base64url JSON");
  return check_claims(claims, issuer, audience, nonce, now_s, e);
}

}  // namespace carcassonne::server::oidc
