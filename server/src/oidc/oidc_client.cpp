#include "oidc/oidc_client.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>

#include "base/crypto.hpp"
#include "oidc/http_fetch.hpp"
#include "oidc/id_token.hpp"
#include "oidc/jose.hpp"

namespace carcassonne::server::oidc {

namespace {

using nlohmann::json;
using steady = std::chrono::steady_clock;

// How long what the provider published is trusted before it is read again: its endpoints change
// rarely; its keys rotate, and a key it withdrew must stop being trusted.
constexpr auto discovery_max_age = std::chrono::hours(24);
constexpr auto keys_max_age = std::chrono::hours(1);

struct endpoints {
  std::string authorization, token, jwks;
};

template <class T>
std::optional<T> fail(error& e, const char* code, std::string message) {
  e = {code, std::move(message)};
  return std::nullopt;
}

// RFC 3986 percent-encoding of everything but the unreserved characters (also right for
// application/x-www-form-urlencoded values).
std::string percent_encoded(const std::string& text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

// 32 bytes of OpenSSL's generator as 43 base64url characters: state, nonce and the PKCE verifier
// (RFC 7636 §4.1: 43 to 128 characters).
std::string random_token() {
  const bytes b = random_bytes(32);
  return base64url_encode(std::string(b.begin(), b.end()));
}

// Printable ASCII of at most 200 characters: the provider's words fit in a log line.
std::string printable(const std::string& text) {
  std::string out;
  for (const char c : text)
    if (c >= 0x20 && c < 0x7f && out.size() < 200) out.push_back(c);
  return out;
}

std::optional<endpoints> fetch_discovery(const settings& s, error& e) {
  std::string base = s.issuer;
  while (!base.empty() && base.back() == '/') base.pop_back();
  const std::string url = base + "/.well-known/openid-configuration";
  const auto answer = http_fetch({"GET", url}, e);
  if (!answer) return std::nullopt;
  if (answer->status != 200)
    return fail<endpoints>(e, "bad_provider", url + ": HTTP " + std::to_string(answer->status));
  const json d = json::parse(answer->body, nullptr, false);
  if (!d.is_object()) return fail<endpoints>(e, "bad_provider", url + ": not a JSON object");
  if (string_member(d, "issuer") != s.issuer)
    return fail<endpoints>(e, "bad_provider",
                           url + " names the issuer '" + printable(string_member(d, "issuer")) +
                               "', not '" + s.issuer + "'");
  endpoints out{string_member(d, "authorization_endpoint"), string_member(d, "token_endpoint"),
                string_member(d, "jwks_uri")};
  std::string why;
  for (const auto* u : {&out.authorization, &out.token, &out.jwks})
    if (!url_allowed(*u, why))
      return fail<endpoints>(e, "bad_provider",
                             url + ": an endpoint is missing or refused: " + why);
  const auto methods = d.find("code_challenge_methods_supported");
  if (methods != d.end() && (!methods->is_array() ||
                             std::find(methods->begin(), methods->end(), "S256") == methods->end()))
    return fail<endpoints>(e, "bad_provider", url + ": the provider does not support PKCE S256");
  return out;
}

std::optional<std::string> fetch_keys(const std::string& jwks_uri, error& e) {
  const auto answer = http_fetch({"GET", jwks_uri}, e);
  if (!answer) return std::nullopt;
  if (answer->status != 200)
    return fail<std::string>(e, "bad_provider",
                             jwks_uri + ": HTTP " + std::to_string(answer->status));
  const json keys = json::parse(answer->body, nullptr, false);
  if (!keys.is_object() || !keys.contains("keys") || !keys["keys"].is_array())
    return fail<std::string>(e, "bad_provider", jwks_uri + ": not a JWKS document");
  return answer->body;
}

// The token endpoint's refusal in the provider's words (RFC 6749 §5.2).
std::string refusal(const http_response& answer) {
  const json j = json::parse(answer.body, nullptr, false);
  std::string words = printable(string_member(j, "error"));
  const std::string description = printable(string_member(j, "error_description"));
  if (!description.empty()) words += (words.empty() ? "" : ": ") + description;
  return "HTTP " + std::to_string(answer.status) + (words.empty() ? "" : " " + words);
}

}  // namespace

std::optional<error> check_settings(const settings& s) {
  std::string why;
  if (!url_allowed(s.issuer, why)) return error{"bad_settings", "issuer: " + why};
  if (s.client_id.empty()) return error{"bad_settings", "no client id"};
  if (s.redirect_uri.rfind("https://", 0) != 0 && s.redirect_uri.rfind("http://", 0) != 0)
    return error{"bad_settings", "redirect URI not an absolute http(s) URL"};
  if ((" " + s.scopes + " ").find(" openid ") == std::string::npos)
    return error{"bad_settings", "scopes without openid"};
  return std::nullopt;
}

struct client::impl {
  settings s;
  std::mutex mutex;  // guards the cached documents; never held while the provider is asked
  std::optional<endpoints> discovered;
  steady::time_point discovered_at;
  std::string keys;
  steady::time_point keys_at;

  std::optional<endpoints> discovery(error& e) {
    {
      const std::lock_guard lock(mutex);
      if (discovered && steady::now() - discovered_at < discovery_max_age) return discovered;
    }
    auto fresh = fetch_discovery(s, e);
    if (!fresh) return std::nullopt;
    const std::lock_guard lock(mutex);
    discovered = fresh, discovered_at = steady::now();
    return fresh;
  }

  std::optional<std::string> provider_keys(const endpoints& ep, bool reread, error& e) {
    {
      const std::lock_guard lock(mutex);
      if (!reread && !keys.empty() && steady::now() - keys_at < keys_max_age) return keys;
    }
    auto fresh = fetch_keys(ep.jwks, e);
    if (!fresh) return std::nullopt;
    const std::lock_guard lock(mutex);
    keys = *fresh, keys_at = steady::now();
    return fresh;
  }
};

client::client(settings s) : impl_(std::make_unique<impl>()) {
  impl_->s = std::move(s);
}

client::~client() = default;

std::optional<authorization> client::begin(error& e) {
  const auto ep = impl_->discovery(e);
  if (!ep) return std::nullopt;
  const settings& s = impl_->s;
  authorization a{"", random_token(), random_token(), random_token()};
  const bytes digest = sha256(a.code_verifier);
  const std::string challenge = base64url_encode(std::string(digest.begin(), digest.end()));
  a.url = ep->authorization + (ep->authorization.find('?') == std::string::npos ? '?' : '&') +
          "response_type=code&client_id=" + percent_encoded(s.client_id) +
          "&redirect_uri=" + percent_encoded(s.redirect_uri) +
          "&scope=" + percent_encoded(s.scopes) + "&state=" + percent_encoded(a.state) +
          "&nonce=" + percent_encoded(a.nonce) + "&code_challenge=" + challenge +
          "&code_challenge_method=S256";
  return a;
}

std::optional<identity> client::finish(const std::string& code, const authorization& started,
                                       error& e) {
  if (code.empty() || code.size() > 4096)
    return fail<identity>(e, "token_refused", "no authorization code, or one too long");
  const auto ep = impl_->discovery(e);
  if (!ep) return std::nullopt;
  const settings& s = impl_->s;
  http_request request{"POST", ep->token, "application/x-www-form-urlencoded"};
  request.body = "grant_type=authorization_code&code=" + percent_encoded(code) +
                 "&redirect_uri=" + percent_encoded(s.redirect_uri) +
                 "&client_id=" + percent_encoded(s.client_id) +
                 "&code_verifier=" + percent_encoded(started.code_verifier);
  // RFC 6749 §2.3.1: the id and secret form-encoded, then Basic.
  if (!s.client_secret.empty())
    request.authorization = "Basic " + base64_encode(percent_encoded(s.client_id) + ":" +
                                                     percent_encoded(s.client_secret));
  const auto answer = http_fetch(request, e);
  if (!answer) return std::nullopt;
  if (answer->status != 200) return fail<identity>(e, "token_refused", refusal(*answer));
  const json tokens = json::parse(answer->body, nullptr, false);
  if (!tokens.is_object())
    return fail<identity>(e, "bad_provider", ep->token + ": not a JSON object");
  const std::string id_token = string_member(tokens, "id_token");
  if (id_token.empty()) return fail<identity>(e, "bad_id_token", "no id_token in the answer");
  auto keys = impl_->provider_keys(*ep, false, e);
  if (keys && names_unknown_key(id_token, *keys)) keys = impl_->provider_keys(*ep, true, e);
  if (!keys) return std::nullopt;
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
      std::chrono::system_clock::now().time_since_epoch());
  return verify_id_token(id_token, *keys, s.issuer, s.client_id, started.nonce, now.count(), e);
}

}  // namespace carcassonne::server::oidc
