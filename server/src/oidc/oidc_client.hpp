// OpenID Connect sign-in with one provider the host configures (docs/hosting.md "Accounts"): the
// authorization code flow with PKCE (RFC 7636, S256), the provider's discovery document
// (/.well-known/openid-configuration) and keys (JWKS), and the ID token checked with OpenSSL:
// its signature against the provider's keys, `iss`, `aud`, `exp` (with a minute of leeway), `iat`
// and the `nonce` of this sign-in.
//
// Every call that talks to the provider blocks: call it from a worker thread, never an I/O thread.
// Thread-safe. Errors are values with a stable code.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace carcassonne::server::oidc {

struct settings {
  std::string issuer;  // e.g. "https://accounts.example.org" (http:// for loopback only)
  std::string client_id, client_secret;
  std::string redirect_uri;  // this server's /auth/oidc/callback as the provider knows it
  std::string scopes = "openid profile";
};

// A sign-in under way: the browser goes to `url`; `state`, `code_verifier` and `nonce` stay on
// the server until the provider sends the browser back with the same `state`.
struct authorization {
  std::string url, state, code_verifier, nonce;
};

// Who the provider says the user is.
struct identity {
  std::string issuer, subject;
  std::string name;  // preferred_username, else name, else ""
};

struct error {
  // bad_settings, provider_unreachable, bad_provider, token_refused, bad_id_token
  std::string code;
  std::string message;
};

// Why `s` cannot work, or nothing: the issuer a URL this client fetches (https://, or http:// to a
// loopback host), a client id, an absolute redirect URI, scopes that include `openid`.
std::optional<error> check_settings(const settings& s);

class client {
 public:
  explicit client(settings s);
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  // A new sign-in: fresh state, PKCE verifier and nonce from OpenSSL's generator; reads the
  // discovery document on first use.
  std::optional<authorization> begin(error& e);
  // The provider sent the browser back with `code`: exchanges it at the token endpoint (with the
  // verifier) and checks the ID token (keys re-read once when it names a key not yet known).
  std::optional<identity> finish(const std::string& code, const authorization& started, error& e);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// The check of an ID token alone (a compact JWS), against a JWKS document's text: RS256 and
// ES256 signatures; `now_s` is the Unix time. Exposed for tests.
std::optional<identity> verify_id_token(const std::string& jwt, const std::string& jwks,
                                        const std::string& issuer, const std::string& audience,
                                        const std::string& nonce, std::int64_t now_s, error& e);

}  // namespace carcassonne::server::oidc
