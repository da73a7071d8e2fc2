// The OpenID Connect client (oidc/oidc_client.hpp) end to end against a minimal provider the test
// starts on loopback (oidc_provider.hpp): discovery, the authorization URL with PKCE, the code
// exchange and the ID token; then a provider that is down, lies about its issuer, refuses the
// code, is silent, or answers too much.
#include <doctest/doctest.h>

#include "free_port.hpp"
#include "oidc/http_fetch.hpp"
#include "oidc/oidc_client.hpp"
#include "oidc_provider.hpp"
#include "oidc_tls.hpp"

// A namespace of their own: in a unity build these using-declarations reach no other file.
namespace oidc_tests {

// Declarations, not a using-directive: another file of the unity batch may bring
// `carcassonne::error`.
using carcassonne::server::oidc::authorization;
using carcassonne::server::oidc::check_settings;
using carcassonne::server::oidc::client;
using carcassonne::server::oidc::error;
using carcassonne::server::oidc::http_fetch;
using carcassonne::server::oidc::http_limits;
using carcassonne::server::oidc::settings;
using carcassonne::server::oidc::url_allowed;
using carcassonne::testing::oidc_form;
using carcassonne::testing::oidc_provider;
using carcassonne::testing::oidc_s256;

namespace {

const std::string oidc_redirect = "https://carcassonne.example.org/auth/oidc/callback";

settings oidc_settings(const oidc_provider& p) {
  return {p.issuer(), p.client_id, p.client_secret, oidc_redirect, "openid profile"};
}

// The browser's part: the query of the authorization URL, after checking where it goes.
std::map<std::string, std::string> oidc_query(const oidc_provider& p, const authorization& a) {
  const std::string endpoint = p.issuer() + "/authorize?";
  REQUIRE(a.url.rfind(endpoint, 0) == 0);
  return oidc_form(a.url.substr(endpoint.size()));
}

}  // namespace

TEST_CASE("oidc: a sign-in end to end: discovery, PKCE, the code exchange, the ID token") {
  oidc_provider provider;
  client c(oidc_settings(provider));
  error e;
  const auto started = c.begin(e);
  REQUIRE_MESSAGE(started, e.code, ": ", e.message);
  const auto q = oidc_query(provider, *started);
  CHECK(q.at("response_type") == "code");
  CHECK(q.at("client_id") == "carcassonne");
  CHECK(q.at("redirect_uri") == oidc_redirect);
  CHECK(q.at("scope") == "openid profile");
  CHECK(q.at("state") == started->state);
  CHECK(q.at("nonce") == started->nonce);
  CHECK(q.at("code_challenge_method") == "S256");
  CHECK(q.at("code_challenge") == oidc_s256(started->code_verifier));
  // Percent-encoded: the redirect URI's ':' and '/', the scope's space.
  CHECK(started->url.find(
            "&redirect_uri=https%3A%2F%2Fcarcassonne.example.org%2Fauth%2Foidc%2Fcallback&") !=
        std::string::npos);
  CHECK(started->url.find("&scope=openid%20profile&") != std::string::npos);
  // RFC 7636: 43 to 128 characters; all three secrets fresh.
  CHECK(started->code_verifier.size() == 43);
  CHECK(started->state.size() == 43);
  CHECK(started->nonce.size() == 43);
  CHECK(started->state != started->nonce);

  const std::string code = provider.authorize(q);
  REQUIRE(code != "");
  const auto who = c.finish(code, *started, e);
  REQUIRE_MESSAGE(who, e.code, ": ", e.message);
  CHECK(who->issuer == provider.issuer());
  CHECK(who->subject == "user-42");
  CHECK(who->name == "ada");
  CHECK(provider.jwks_reads() == 1);

  // The code is spent: the same exchange again is refused by the provider.
  CHECK_FALSE(c.finish(code, *started, e));
  CHECK(e.code == "token_refused");
  CHECK(e.message == "HTTP 400 invalid_grant: unknown code");
}

TEST_CASE("oidc: another sign-in's verifier or nonce does not finish this one") {
  oidc_provider provider;
  client c(oidc_settings(provider));
  error e;
  const auto first = c.begin(e), second = c.begin(e);
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->state != second->state);
  CHECK(first->code_verifier != second->code_verifier);
  CHECK(first->nonce != second->nonce);
  // A code stolen from the first sign-in, exchanged with the second's verifier: PKCE refuses it.
  auto stolen = *second;
  CHECK_FALSE(c.finish(provider.authorize(oidc_query(provider, *first)), stolen, e));
  CHECK(e.code == "token_refused");
  CHECK(e.message == "HTTP 400 invalid_grant: PKCE verifier");
  // The first sign-in's token presented to the second (its nonce): a replay, refused.
  stolen = *first;
  stolen.nonce = second->nonce;
  CHECK_FALSE(c.finish(provider.authorize(oidc_query(provider, *first)), stolen, e));
  CHECK(e.code == "bad_id_token");
  CHECK(e.message == "nonce is not this sign-in's");
}

TEST_CASE("oidc: keys rotated by the provider are read again, once") {
  oidc_provider provider;
  client c(oidc_settings(provider));
  error e;
  auto started = c.begin(e);
  REQUIRE(started);
  REQUIRE(c.finish(provider.authorize(oidc_query(provider, *started)), *started, e));
  CHECK(provider.jwks_reads() == 1);
  started = c.begin(e);
  REQUIRE(started);
  REQUIRE(c.finish(provider.authorize(oidc_query(provider, *started)), *started, e));
  CHECK(provider.jwks_reads() == 1);  // cached
  provider.rotate_key("ES256", "k2");
  started = c.begin(e);
  REQUIRE(started);
  const auto who = c.finish(provider.authorize(oidc_query(provider, *started)), *started, e);
  REQUIRE_MESSAGE(who, e.code, ": ", e.message);
  CHECK(who->subject == "user-42");
  CHECK(provider.jwks_reads() == 2);
}

TEST_CASE("oidc: a provider down, naming another issuer, or refusing the code") {
  error e;
  const std::string nowhere =
      "http://127.0.0.1:" + std::to_string(carcassonne::testing::free_loopback_port());
  client down({nowhere, "carcassonne", "", oidc_redirect});
  CHECK_FALSE(down.begin(e));
  CHECK(e.code == "provider_unreachable");
  CHECK(e.message.find(nowhere + "/.well-known/openid-configuration: connect: ") == 0);

  oidc_provider liar;
  liar.advertise_issuer("https://accounts.example.org");
  client fooled(oidc_settings(liar));
  CHECK_FALSE(fooled.begin(e));
  CHECK(e.code == "bad_provider");
  CHECK(e.message == liar.issuer() +
                         "/.well-known/openid-configuration names the issuer "
                         "'https://accounts.example.org', not '" +
                         liar.issuer() + "'");

  oidc_provider strict;
  strict.refuse_tokens();
  client refused(oidc_settings(strict));
  const auto started = refused.begin(e);
  REQUIRE(started);
  CHECK_FALSE(refused.finish(strict.authorize(oidc_query(strict, *started)), *started, e));
  CHECK(e.code == "token_refused");
  CHECK(e.message == "HTTP 400 invalid_grant: refused");

  // The wrong client secret: the provider does not know this client.
  oidc_provider other;
  settings wrong = oidc_settings(other);
  wrong.client_secret = "guess";
  client impostor(wrong);
  const auto again = impostor.begin(e);
  REQUIRE(again);
  CHECK_FALSE(impostor.finish(other.authorize(oidc_query(other, *again)), *again, e));
  CHECK(e.code == "token_refused");
  CHECK(e.message == "HTTP 401 invalid_client");
}

TEST_CASE("oidc: a silent provider times out, a huge answer is refused, http:// stays local") {
  namespace asio = boost::asio;
  asio::io_context ioc;
  asio::ip::tcp::acceptor silent(ioc, {asio::ip::make_address("127.0.0.1"), 0});  // never accepts
  const std::string url =
      "http://127.0.0.1:" + std::to_string(silent.local_endpoint().port()) + "/";
  error e;
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_FALSE(http_fetch({"GET", url}, e, {std::chrono::milliseconds(300)}));
  const auto waited = std::chrono::steady_clock::now() - t0;
  CHECK(e.code == "provider_unreachable");
  // The exchange, unless a loaded machine spent the time in an earlier step (the name lookup).
  CHECK(e.message.starts_with(url + ": "));
  CHECK(e.message.ends_with(": no answer within 300 ms"));
  CHECK(waited >= std::chrono::milliseconds(300));
  CHECK(waited < std::chrono::seconds(3));

  oidc_provider provider;
  CHECK(http_fetch({"GET", provider.issuer() + "/jwks"}, e));
  CHECK_FALSE(http_fetch({"GET", provider.issuer() + "/jwks"}, e, {std::chrono::seconds(5), 100}));
  CHECK(e.code == "bad_provider");
  CHECK(e.message == provider.issuer() + "/jwks: an answer larger than 100 bytes");
  // TLS to a server that speaks plain HTTP: the handshake fails, nothing is read.
  const std::string tls =
      "https://127.0.0.1:" + provider.issuer().substr(provider.issuer().rfind(':') + 1);
  CHECK_FALSE(http_fetch({"GET", tls + "/jwks"}, e));
  CHECK(e.code == "provider_unreachable");
  CHECK(e.message.find(tls + "/jwks: TLS handshake: ") == 0);

  std::string why;
  CHECK(url_allowed("https://id.example.org/x?y=1", why));
  CHECK(url_allowed("http://localhost:8080/", why));
  CHECK(url_allowed("http://[::1]:8080/", why));
  CHECK_FALSE(url_allowed("http://id.example.org/", why));
  CHECK(why == "http:// only to this machine (loopback); use https:// for http://id.example.org/");
  CHECK_FALSE(url_allowed("https://user:pw@id.example.org/", why));
  CHECK_FALSE(url_allowed("https://id.example.org/\r\nX: y", why));
  CHECK_FALSE(url_allowed("ftp://id.example.org/", why));
  CHECK_FALSE(url_allowed("https://id.example.org:99999/", why));
  CHECK_FALSE(http_fetch({"GET", "http://id.example.org/"}, e));
  CHECK(e.code == "bad_settings");

  CHECK_FALSE(check_settings({"https://id.example.org", "carcassonne", "", oidc_redirect}));
  const auto bad = check_settings({"http://id.example.org", "carcassonne", "", oidc_redirect});
  REQUIRE(bad);
  CHECK(bad->code == "bad_settings");
  CHECK(check_settings({"https://id.example.org", "", "", oidc_redirect})->message ==
        "no client id");
  CHECK(check_settings({"https://id.example.org", "c", "", oidc_redirect, "profile"})->message ==
        "scopes without openid");
}

}  // namespace oidc_tests

namespace oidc_tests {

TEST_CASE("oidc: TLS: the certificate must chain to a trusted one and name the host") {
  using carcassonne::testing::oidc_self_signed;
  using carcassonne::testing::oidc_tls_server;
  const auto for_loopback = oidc_self_signed("IP:127.0.0.1,DNS:localhost");
  oidc_tls_server server(for_loopback, R"({"keys":[]})");
  const std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/jwks";
  error e;
  // Self-signed and not trusted: refused during the handshake.
  CHECK_FALSE(http_fetch({"GET", url}, e));
  CHECK(e.code == "provider_unreachable");
  CHECK(e.message.find(url + ": TLS handshake: certificate verify failed") == 0);
  // Trusted, and for this address or this name: the answer is read.
  http_limits trusting;
  trusting.extra_ca_pem = for_loopback.cert_pem;
  const auto answer = http_fetch({"GET", url}, e, trusting);
  REQUIRE_MESSAGE(answer, e.message);
  CHECK(answer->status == 200);
  CHECK(answer->body == R"({"keys":[]})");
  const std::string by_name = "https://localhost:" + std::to_string(server.port()) + "/jwks";
  CHECK(http_fetch({"GET", by_name}, e, trusting));

  // Trusted, but made for another host: the host name check refuses it.
  const auto for_elsewhere = oidc_self_signed("DNS:id.example.org");
  oidc_tls_server impostor(for_elsewhere, R"({"keys":[]})");
  http_limits trusting_it;
  trusting_it.extra_ca_pem = for_elsewhere.cert_pem;
  const std::string there = "https://127.0.0.1:" + std::to_string(impostor.port()) + "/jwks";
  CHECK_FALSE(http_fetch({"GET", there}, e, trusting_it));
  CHECK(e.code == "provider_unreachable");
  CHECK(e.message.find(there + ": TLS handshake: ") == 0);
}

}  // namespace oidc_tests

namespace oidc_tests {

TEST_CASE("oidc: one client, sign-ins on several worker threads at once") {
  oidc_provider provider;
  client c(oidc_settings(provider));
  error e;
  const auto first = c.begin(e);
  REQUIRE(first);
  REQUIRE(c.finish(provider.authorize(oidc_query(provider, *first)), *first, e));
  std::atomic<int> signed_in{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([&] {
      for (int i = 0; i < 3; ++i) {
        error mine;
        const auto started = c.begin(mine);
        if (!started) continue;
        const std::string code =
            provider.authorize(oidc_form(started->url.substr(started->url.find('?') + 1)));
        const auto who = c.finish(code, *started, mine);
        if (who && who->subject == "user-42") ++signed_in;
      }
    });
  for (auto& w : workers) w.join();
  CHECK(signed_in == 12);
  CHECK(provider.jwks_reads() == 1);  // the keys read once, shared by every thread
}

}  // namespace oidc_tests
