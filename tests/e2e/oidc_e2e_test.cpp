// OpenID Connect sign-in through the real server's routes (docs/protocol.md §23): the test plays
// the browser between the server and a minimal provider it starts on loopback
// (../server/oidc_provider.hpp). /auth/oidc/start, the provider's code, /auth/oidc/callback with
// the pending sign-in's cookie, then the session on HTTP and on the WebSocket; and the callbacks
// an attacker would try: no cookie, another sign-in's state, a replayed code, another nonce.
#include <sqlite3.h>

#include "../server/free_port.hpp"
#include "../server/oidc_provider.hpp"
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;

namespace {

// A server with accounts (a journal in `dir`) and OpenID Connect sign-in with `provider`, on a
// port chosen before listening: the redirect URI names it.
carcassonne::server::config oidc_e2e_config(const std::string& dir,
                                            const carcassonne::testing::oidc_provider& provider) {
  auto c = test_config();
  c.journal = true;
  c.data_dir = dir;
  c.port = static_cast<std::uint16_t>(carcassonne::testing::free_loopback_port());
  c.oidc_issuer = provider.issuer();
  c.oidc_client_id = provider.client_id;
  c.oidc_client_secret = provider.client_secret;
  c.oidc_redirect_uri = "http://127.0.0.1:" + std::to_string(c.port) + "/auth/oidc/callback";
  return c;
}

// The value the answer's Set-Cookie fields give the cookie `name`; nothing when none sets it.
std::optional<std::string> oidc_e2e_cookie(const http_reply& r, const std::string& name) {
  const auto it = r.headers.find("set-cookie");
  if (it == r.headers.end()) return std::nullopt;
  std::istringstream lines(it->second);
  for (std::string c; std::getline(lines, c);)
    if (c.starts_with(name + "=")) return c.substr(name.size() + 1, c.find(';') - name.size() - 1);
  return std::nullopt;
}

// A sign-in started at the server, as the browser holds it: the pending cookie and the query the
// browser takes to the provider's authorization endpoint.
struct oidc_e2e_started {
  std::string cookie;  // carcassonne_oidc=...
  std::map<std::string, std::string> query;
};

oidc_e2e_started oidc_e2e_start(std::uint16_t port,
                                const carcassonne::testing::oidc_provider& provider) {
  const auto r = http_get(port, "/auth/oidc/start");
  REQUIRE_MESSAGE(r.status == 302, r.body);
  const std::string endpoint = provider.issuer() + "/authorize?";
  const std::string to = r.headers.at("location");
  REQUIRE(to.starts_with(endpoint));
  const auto& set = r.headers.at("set-cookie");
  CHECK(set.find("; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=600") != std::string::npos);
  const auto value = oidc_e2e_cookie(r, "carcassonne_oidc");
  REQUIRE(value);
  REQUIRE(*value != "");
  return {"carcassonne_oidc=" + *value,
          carcassonne::testing::oidc_form(to.substr(endpoint.size()))};
}

http_reply oidc_e2e_callback(std::uint16_t port, const std::string& code, const std::string& state,
                             const std::string& cookie) {
  std::map<std::string, std::string> headers;
  if (!cookie.empty()) headers["Cookie"] = cookie;
  return http_get(port, "/auth/oidc/callback?code=" + code + "&state=" + state, headers);
}

// Rows of one table of the server's database (players, identities).
long long oidc_e2e_rows(const std::string& dir, const std::string& table) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2((dir + "/carcassonne.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
          SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  long long n = -1;
  if (sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &st, nullptr) ==
          SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

std::string oidc_e2e_location(const http_reply& r) {
  const auto it = r.headers.find("location");
  return it == r.headers.end() ? "" : it->second;
}

json oidc_e2e_body(const http_reply& r) {
  return json::parse(r.body, nullptr, false);
}

}  // namespace

TEST_CASE("e2e oidc: sign-in through the server: start, the provider, the callback, a session") {
  carcassonne::testing::oidc_provider provider;
  temp_dir dir("carcassonne-e2e-oidc");
  test_server server(oidc_e2e_config(dir.str(), provider));
  const auto port = server.port();
  const auto players_before = oidc_e2e_rows(dir.str(), "players");

  // The browser goes to the provider with the server's client, redirect URI, PKCE and nonce.
  const auto started = oidc_e2e_start(port, provider);
  const auto& q = started.query;
  CHECK(q.at("client_id") == provider.client_id);
  CHECK(q.at("redirect_uri") == "http://127.0.0.1:" + std::to_string(port) + "/auth/oidc/callback");
  CHECK(q.at("code_challenge_method") == "S256");
  // The cookie holds state.verifier.nonce: the same state and nonce, the verifier of the challenge.
  const std::string pending = started.cookie.substr(std::string("carcassonne_oidc=").size());
  const auto dot1 = pending.find('.'), dot2 = pending.rfind('.');
  CHECK(pending.substr(0, dot1) == q.at("state"));
  CHECK(pending.substr(dot2 + 1) == q.at("nonce"));
  CHECK(carcassonne::testing::oidc_s256(pending.substr(dot1 + 1, dot2 - dot1 - 1)) ==
        q.at("code_challenge"));

  // The provider sends the browser back with a code: signed in, the pending cookie cleared.
  const auto back = oidc_e2e_callback(port, provider.authorize(q), q.at("state"), started.cookie);
  REQUIRE_MESSAGE(back.status == 302, back.body);
  CHECK(back.headers.at("location") == "/");
  CHECK(oidc_e2e_cookie(back, "carcassonne_oidc") == "");
  CHECK(back.headers.at("set-cookie")
            .find("carcassonne_oidc=; Path=/auth/oidc; HttpOnly; "
                  "SameSite=Lax; Max-Age=0") != std::string::npos);
  const auto session = oidc_e2e_cookie(back, "carcassonne_session").value_or("");
  REQUIRE(session.size() == 64);
  const std::string cookie = "carcassonne_session=" + session;
  const auto me = http_get(port, "/api/me", {{"Cookie", cookie}});
  REQUIRE_MESSAGE(me.status == 200, me.body);
  const json player = oidc_e2e_body(me)["player"];
  CHECK(player["name"] == "ada");  // the provider's preferred_username, free and valid
  CHECK(player["guest"] == false);
  CHECK(oidc_e2e_rows(dir.str(), "players") == players_before + 1);
  CHECK(oidc_e2e_rows(dir.str(), "identities") == 1);

  // The same identity again: the same player, a new session.
  const auto second = oidc_e2e_start(port, provider);
  const auto again = oidc_e2e_callback(port, provider.authorize(second.query),
                                       second.query.at("state"), second.cookie);
  REQUIRE_MESSAGE(again.status == 302, again.body);
  const auto session2 = oidc_e2e_cookie(again, "carcassonne_session").value_or("");
  CHECK(session2 != session);
  const auto me2 = http_get(port, "/api/me", {{"Cookie", "carcassonne_session=" + session2}});
  CHECK(oidc_e2e_body(me2)["player"] == player);
  CHECK(oidc_e2e_rows(dir.str(), "players") == players_before + 1);

  // The page's WebSocket signs in with the cookie.
  ws_client page(port, false,
                 {{"Cookie", cookie}, {"Origin", "http://127.0.0.1:" + std::to_string(port)}});
  const auto who = page.request({{"type", "authenticate"}});
  REQUIRE_MESSAGE(who["type"] == "authenticated", who.dump());
  CHECK(who["player"] == player);
}

TEST_CASE(
    "e2e oidc: a callback without its cookie, of another sign-in, replayed, for another "
    "nonce or refused by the provider signs nobody in") {
  carcassonne::testing::oidc_provider provider;
  temp_dir dir("carcassonne-e2e-oidc-refused");
  test_server server(oidc_e2e_config(dir.str(), provider));
  const auto port = server.port();
  const auto players_before = oidc_e2e_rows(dir.str(), "players");
  // The browser is sent back to the page, which says why; no cookie is set.
  const auto refused = [&](const http_reply& r, const std::string& code) {
    CHECK_MESSAGE(r.status == 302, r.body);
    CHECK(oidc_e2e_location(r) == "/#signin-error=" + code);
    CHECK(r.headers.count("set-cookie") == 0);
  };

  // Without the cookie (another browser, a link an attacker sent): the state matches nothing.
  const auto mine = oidc_e2e_start(port, provider);
  const auto code = provider.authorize(mine.query);
  refused(oidc_e2e_callback(port, code, mine.query.at("state"), ""), "bad_oidc_state");
  // The attacker's own sign-in's code and state, in the victim's browser (login CSRF).
  const auto theirs = oidc_e2e_start(port, provider);
  refused(oidc_e2e_callback(port, provider.authorize(theirs.query), theirs.query.at("state"),
                            mine.cookie),
          "bad_oidc_state");
  refused(oidc_e2e_callback(port, code, "", mine.cookie), "bad_oidc_state");
  refused(oidc_e2e_callback(port, code, mine.query.at("state"), "carcassonne_oidc=junk"),
          "bad_oidc_state");
  CHECK(oidc_e2e_rows(dir.str(), "players") == players_before);

  // An ID token issued for another nonce (a token replayed from another sign-in).
  const auto other = oidc_e2e_start(port, provider);
  auto for_other_nonce = other.query;
  for_other_nonce["nonce"] = theirs.query.at("nonce");
  refused(oidc_e2e_callback(port, provider.authorize(for_other_nonce), other.query.at("state"),
                            other.cookie),
          "bad_id_token");
  CHECK(oidc_e2e_rows(dir.str(), "players") == players_before);

  // The user said no at the provider, which sends the browser back with an error.
  const auto denied = oidc_e2e_start(port, provider);
  refused(
      http_get(port, "/auth/oidc/callback?error=access_denied&state=" + denied.query.at("state"),
               {{"Cookie", denied.cookie}}),
      "oidc_denied");
  CHECK(oidc_e2e_rows(dir.str(), "players") == players_before);

  // The right callback signs in once; the same code again is refused by the provider.
  const auto ok = oidc_e2e_callback(port, code, mine.query.at("state"), mine.cookie);
  REQUIRE_MESSAGE(ok.status == 302, ok.body);
  CHECK(oidc_e2e_rows(dir.str(), "players") == players_before + 1);
  refused(oidc_e2e_callback(port, code, mine.query.at("state"), mine.cookie), "token_refused");
  CHECK(oidc_e2e_rows(dir.str(), "players") == players_before + 1);
}

TEST_CASE("e2e oidc: a provider that cannot be reached sends the browser back to the page") {
  std::optional<carcassonne::testing::oidc_provider> provider(std::in_place);
  temp_dir dir("carcassonne-e2e-oidc-down");
  test_server server(oidc_e2e_config(dir.str(), *provider));
  provider.reset();
  const auto r = http_get(server.port(), "/auth/oidc/start");
  CHECK(r.status == 302);
  CHECK(oidc_e2e_location(r) == "/#signin-error=provider_unreachable");
  CHECK(r.headers.count("set-cookie") == 0);
  CHECK(oidc_e2e_body(http_get(server.port(), "/auth/oidc/other"))["error"] == "not_found");
}

TEST_CASE("e2e oidc: the sign-in methods the page offers") {
  carcassonne::testing::oidc_provider provider;
  temp_dir dir("carcassonne-e2e-oidc-methods");
  {
    test_server server(oidc_e2e_config(dir.str(), provider));
    const auto r = http_get(server.port(), "/api/sign-in-methods");
    REQUIRE(r.status == 200);
    CHECK(oidc_e2e_body(r) ==
          json{{"password", true}, {"oidc", true}, {"oidc_issuer", provider.issuer()}});
    CHECK(http_post(server.port(), "/api/sign-in-methods", json::object()).status == 405);
  }
  auto plain = oidc_e2e_config(dir.str(), provider);
  plain.oidc_issuer.clear();
  {
    test_server server(plain);
    const auto r = http_get(server.port(), "/api/sign-in-methods");
    CHECK(oidc_e2e_body(r) == json{{"password", true}, {"oidc", false}, {"oidc_issuer", nullptr}});
    CHECK(oidc_e2e_body(http_get(server.port(), "/auth/oidc/start"))["error"] == "oidc_off");
  }
  test_server memory_only;  // no journal: no accounts
  const auto r = http_get(memory_only.port(), "/api/sign-in-methods");
  CHECK(oidc_e2e_body(r) == json{{"password", false}, {"oidc", false}, {"oidc_issuer", nullptr}});
}
