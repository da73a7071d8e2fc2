// Accounts end to end (docs/protocol.md "Accounts"): a guest made over HTTP, its session on the
// WebSocket, a claimed name, sign-in and its refusals, the cookie and the Origin check, seats that
// belong to players in the record, and a rated game's ratings in the profile and the leaderboard,
// written once across a restart.
#include <sstream>

#include "../server/private_postgres.hpp"
#include "carcassonne/app/commands.hpp"
#include "e2e_client.hpp"
#include "process.hpp"
#include "ratings/pools.hpp"

using namespace e2e;

namespace {

carcassonne::server::config accounts_config(const std::string& dir) {
  auto c = test_config();
  c.journal = true;
  c.data_dir = dir;
  return c;
}

json accounts_body(const http_reply& r) {
  return json::parse(r.body, nullptr, false);
}

// A new guest: its body (player, key, session).
json accounts_guest(std::uint16_t port) {
  const auto r = http_post(port, "/api/guest", json::object());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return accounts_body(r);
}

}  // namespace

TEST_CASE("e2e accounts: a guest, its cookie, a claimed name, sign-in and its refusals") {
  temp_dir dir("carcassonne-e2e-accounts");
  test_server server(accounts_config(dir.str()));
  const auto port = server.port();

  const auto made = http_post(port, "/api/guest", json::object());
  REQUIRE_MESSAGE(made.status == 201, made.body);
  const json guest = accounts_body(made);
  const std::string id = guest["player"]["id"], session = guest["session"], key = guest["key"];
  CHECK(guest["player"]["guest"] == true);
  CHECK(guest["player"]["name"] == "Guest " + id.substr(1, 4));
  CHECK(key.size() == 64);
  const auto cookie = made.headers.at("set-cookie");
  CHECK(cookie.starts_with("carcassonne_session=" + session + ";"));
  CHECK(cookie.find("HttpOnly") != std::string::npos);
  CHECK(cookie.find("SameSite=Strict") != std::string::npos);

  // Who am I: by the token, and by the cookie.
  auto me = http_get(port, "/api/me", bearer(session));
  CHECK(accounts_body(me)["player"]["id"] == id);
  me = http_get(port, "/api/me", {{"Cookie", "a=b; carcassonne_session=" + session}});
  CHECK(accounts_body(me)["player"]["id"] == id);
  CHECK(http_get(port, "/api/me", bearer("0123")).status == 401);

  // The key signs the guest in again (a new session).
  auto again = http_post(port, "/api/sign-in", {{"player", id}, {"key", key}});
  REQUIRE(again.status == 200);
  CHECK(accounts_body(again)["session"] != session);
  CHECK(http_post(port, "/api/sign-in", {{"player", id}, {"key", std::string(64, '0')}}).status ==
        401);

  // Claiming a name: refusals first, nothing changes.
  const auto claim = [&](const std::string& s, const std::string& name, const std::string& pw) {
    return http_post(port, "/api/me/name", {{"name", name}, {"password", pw}}, bearer(s));
  };
  CHECK(accounts_body(claim(session, "A\x01nn", "long enough pw"))["error"] == "bad_name");
  CHECK(accounts_body(claim(session, "Аnn Smith", "long enough pw"))["error"] == "bad_name");
  CHECK(accounts_body(claim(session, "Ann Smith", "short"))["error"] == "weak_password");
  CHECK(accounts_body(claim(session, "Ann Smith", "password123"))["error"] == "weak_password");
  CHECK(accounts_body(claim(session, "Ann Smith", std::string(200, 'x') + "y"))["error"] ==
        "password_too_long");
  CHECK(claim(session, "Ann Smith", std::string(10'000, 'x')).status == 413);  // over 8 KiB
  const auto claimed = claim(session, "Ann Smith", "tiles and meeples");
  REQUIRE_MESSAGE(claimed.status == 200, claimed.body);
  CHECK(accounts_body(claimed)["player"] ==
        json{{"id", id}, {"name", "Ann Smith"}, {"guest", false}, {"bot", false}});
  CHECK(accounts_body(claim(session, "Ann Jones", "tiles and meeples"))["error"] == "not_a_guest");
  // A look-alike of a taken name is taken.
  const json other = accounts_guest(port);
  CHECK(accounts_body(claim(other["session"], "ANN_SM1TH", "tiles and meeples"))["error"] ==
        "name_taken");

  // Sign-in by name: the right password, then wrong ones; an unknown name answers the same.
  const auto sign_in = [&](const std::string& name, const std::string& pw) {
    return http_post(port, "/api/sign-in", {{"name", name}, {"password", pw}});
  };
  const auto in = sign_in("ann smith", "tiles and meeples");
  REQUIRE_MESSAGE(in.status == 200, in.body);
  CHECK(accounts_body(in)["player"]["id"] == id);
  const auto wrong = sign_in("Ann Smith", "not the password");
  const auto unknown = sign_in("Nobody Here", "not the password");
  CHECK(wrong.status == 401);
  CHECK(unknown.status == 401);
  CHECK(wrong.body == unknown.body);
  // The name's budget runs out (10 failures), whoever tries it.
  for (int i = 0; i < 9; ++i) sign_in("Ann Smith", "guess " + std::to_string(i));
  const auto limited = sign_in("Ann Smith", "tiles and meeples");
  CHECK(limited.status == 429);
  CHECK(accounts_body(limited)["error"] == "too_many_attempts");
  CHECK(std::stoi(limited.headers.at("retry-after")) > 0);

  // A cross-site POST with the cookie is refused; so is a form's content type.
  CHECK(
      http_post(port, "/api/sign-out", json::object(),
                {{"Cookie", "carcassonne_session=" + session}, {"Origin", "https://evil.example"}})
          .status == 403);
  CHECK(http_request(port, http::verb::post, "/api/sign-out",
                     {{"Cookie", "carcassonne_session=" + session},
                      {"Content-Type", "application/x-www-form-urlencoded"}},
                     "everywhere=true")
            .status == 415);
  CHECK(http_get(port, "/api/me", bearer(session)).status == 200);

  // Signing out everywhere ends every session of the player.
  const std::string second = accounts_body(in)["session"];
  CHECK(http_post(port, "/api/sign-out", {{"everywhere", true}}, bearer(session)).status == 200);
  CHECK(http_get(port, "/api/me", bearer(session)).status == 401);
  CHECK(http_get(port, "/api/me", bearer(second)).status == 401);
}

TEST_CASE("e2e accounts: the WebSocket's session, the Origin check, seats of players") {
  temp_dir dir("carcassonne-e2e-accounts-ws");
  test_server server(accounts_config(dir.str()));
  const auto port = server.port();
  const json guest = accounts_guest(port);
  const std::string session = guest["session"];
  const std::map<std::string, std::string> cookie{{"Cookie", "carcassonne_session=" + session}};

  // Another site's page with the cookie is refused at the upgrade; the server's own is not.
  const std::map<std::string, std::string> upgrade{
      {"Upgrade", "websocket"},
      {"Connection", "Upgrade"},
      {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
      {"Sec-WebSocket-Version", "13"},
      {"Cookie", cookie.at("Cookie")}};
  auto cross = upgrade;
  cross["Origin"] = "https://evil.example";
  const auto refused = http_request(port, http::verb::get, "/ws", cross);
  CHECK(refused.status == 403);
  const std::string own = "http://127.0.0.1:" + std::to_string(port);
  ws_client page(port, false, {{"Cookie", cookie.at("Cookie")}, {"Origin", own}});
  auto who = page.request({{"type", "authenticate"}});
  REQUIRE_MESSAGE(who["type"] == "authenticated", who.dump());
  CHECK(who["player"]["id"] == guest["player"]["id"]);

  // Any client: the token in the message. A bad one is refused and changes nothing.
  ws_client c(port);
  CHECK(c.request({{"type", "authenticate"}, {"session", "nope"}})["code"] == "bad_session");
  CHECK(c.request({{"type", "authenticate"}})["code"] == "bad_session");
  CHECK(c.request({{"type", "authenticate"}, {"session", session}})["type"] == "authenticated");

  auto made = c.request({{"type", "create_room"}, {"seats", 3}});
  const std::string room = made["room"];
  auto joined = c.request({{"type", "join"}, {"room", room}, {"name", "Ignored"}});
  REQUIRE_MESSAGE(joined["type"] == "joined", joined.dump());
  c.wait_view([](const json& v) { return v["room"]["seats"][0]["name"].is_string(); }, "seat");
  CHECK(c.view["room"]["seats"][0]["name"] == guest["player"]["name"]);
  // The same player cannot take a second seat, from any connection.
  CHECK(page.request({{"type", "join"}, {"room", room}})["code"] == "already_seated");
  // Without a session a join still needs a name.
  ws_client anonymous(port);
  CHECK(anonymous.request({{"type", "join"}, {"room", room}})["code"] == "bad_message");
}

TEST_CASE("e2e accounts: a rated game against a bot, in the profile and the leaderboard, once") {
  temp_dir dir("carcassonne-e2e-accounts-rated");
  std::string player, room;
  {
    test_server server(accounts_config(dir.str()));
    const auto port = server.port();
    const json guest = accounts_guest(port);
    player = guest["player"]["id"];
    ws_client c(port);
    REQUIRE(c.request({{"type", "authenticate"}, {"session", guest["session"]}})["type"] ==
            "authenticated");
    auto made = c.request({{"type", "create_room"},
                           {"seats", 2},
                           {"bots", {nullptr, "random"}},
                           {"bot_pause_ms", 0}});
    room = made["room"];
    REQUIRE(c.request({{"type", "join"}, {"room", room}})["type"] == "joined");
    REQUIRE(c.request({{"type", "start"}})["type"] == "started");
    // A resignation ends a two-player game: a loss, whatever the scores.
    auto resigned = c.request({{"type", "resign"}});
    REQUIRE_MESSAGE(resigned["type"] == "resigned", resigned.dump());
    c.wait_view([](const json& v) { return v["game"]["status"] == "finished"; }, "the end");

    const auto record = accounts_body(http_get(port, "/api/rooms/" + room + "/record"));
    CHECK(record["setup"]["players"][0]["player"] == player);
    CHECK(record["setup"]["players"][1]["player"] == "bot-random");

    const auto before = std::vector<carcassonne::server::ratings::rating>(2);
    const auto after = carcassonne::server::ratings::rate_game(
        before, std::vector<carcassonne::server::ratings::standing>{{0, true}, {0, false}});
    REQUIRE(eventually([&] {
      return accounts_body(http_get(port, "/api/players/" + player))["ratings"].size() == 1;
    }));
    const json profile = accounts_body(http_get(port, "/api/players/" + player));
    const json& r = profile["ratings"][0];
    CHECK(r["pool"] == "duel");
    CHECK(r["games"] == 1);
    CHECK(r["provisional"] == true);
    CHECK(r["rating"].get<double>() == doctest::Approx(after[0].r).epsilon(1e-12));
    CHECK(r["deviation"].get<double>() == doctest::Approx(after[0].rd).epsilon(1e-12));
    CHECK(r["history"].size() == 1);
    CHECK(profile["games"]["total"] == 1);
    CHECK(profile["games"]["games"][0]["room"] == room);
    CHECK(profile["games"]["games"][0]["seats"][0]["forfeited"] == true);

    const json board = accounts_body(http_get(port, "/api/leaderboards/duel"));
    REQUIRE(board["total"] == 2);
    CHECK(board["players"][0]["player"]["id"] == "bot-random");  // the winner first
    CHECK(board["players"][0]["rating"].get<double>() ==
          doctest::Approx(after[1].r).epsilon(1e-12));
    CHECK(board["players"][1]["player"]["id"] == player);
    CHECK(http_get(port, "/api/leaderboards/chess").status == 404);
  }
  // After a restart on the same database: the same, rated once.
  test_server again(accounts_config(dir.str()));
  const json profile = accounts_body(http_get(again.port(), "/api/players/" + player));
  CHECK(profile["ratings"][0]["games"] == 1);
  const json games = accounts_body(http_get(again.port(), "/api/games?player=" + player));
  CHECK(games["total"] == 1);
  const json exported = accounts_body(http_get(again.port(), "/api/players/" + player + "/export"));
  REQUIRE(exported["records"].size() == 1);
  CHECK(exported["records"][0]["room"] == room);
  CHECK(exported["records"][0]["format"] == "carcassonne-record/1");
}

TEST_CASE("e2e accounts: carcassonne admin bans, renames, resets; a player deletes their account") {
  temp_dir dir("carcassonne-e2e-accounts-admin");
  test_server server(accounts_config(dir.str()));
  const auto port = server.port();
  const json guest = accounts_guest(port);
  const std::string id = guest["player"]["id"], session = guest["session"];
  REQUIRE(http_post(port, "/api/me/name", {{"name", "Carl Moderated"}, {"password", "meeples!!"}},
                    bearer(session))
              .status == 200);
  const auto admin = [&](std::vector<std::string> args, int expected = 0) {
    args.insert(args.end(), {"--data-dir", dir.str()});
    std::ostringstream out, err;
    const int status = carcassonne::app::run_admin(args, out, err);
    CHECK_MESSAGE(status == expected, err.str());
    return status == 0 ? json::parse(out.str()) : json();
  };
  CHECK(admin({"show", "carl moderated"})["player"]["id"] == id);
  admin({"show", "nobody at all"}, 1);

  // Banned: the session ends, sign-in and authenticate are refused.
  CHECK(admin({"ban", id})["action"] == "ban");
  CHECK(http_get(port, "/api/me", bearer(session)).status == 401);
  const auto refused =
      http_post(port, "/api/sign-in", {{"name", "Carl Moderated"}, {"password", "meeples!!"}});
  CHECK(refused.status == 403);
  CHECK(accounts_body(refused)["error"] == "banned");
  admin({"unban", id});

  // Renamed; a reset password is the only one that works, and every session ended.
  CHECK(admin({"rename", id, "Carl Renamed"})["name"] == "Carl Renamed");
  admin({"rename", id, "Guest 0000"}, 1);  // the name rules hold
  const json reset = admin({"reset-password", "Carl Renamed"});
  const std::string password = reset["password"];
  CHECK(http_post(port, "/api/sign-in", {{"name", "Carl Renamed"}, {"password", "meeples!!"}})
            .status == 401);
  const auto in =
      http_post(port, "/api/sign-in", {{"name", "Carl Renamed"}, {"password", password}});
  REQUIRE_MESSAGE(in.status == 200, in.body);

  // The player deletes the account: the name is free again, the session gone.
  const std::string fresh = accounts_body(in)["session"];
  CHECK(http_post(port, "/api/me/delete", json::object(), bearer(fresh)).status == 200);
  CHECK(http_get(port, "/api/me", bearer(fresh)).status == 401);
  CHECK(accounts_body(http_get(port, "/api/players/" + id))["player"]["name"] == "deleted player");
  const json other = accounts_guest(port);
  CHECK(http_post(port, "/api/me/name", {{"name", "Carl Renamed"}, {"password", "meeples!!"}},
                  bearer(other["session"]))
            .status == 200);
}

TEST_CASE("e2e accounts: two instances on one PostgreSQL share players, sessions and ratings") {
  auto pg = carcassonne::testing::started_postgres();
  if (!pg) return;
  auto config = test_config();
  config.journal = true;
  config.store_url = pg->fresh_database();
  test_server a(config), b(config);

  // A guest made on one instance is signed in on the other, and signs out from there.
  const json guest = accounts_guest(a.port());
  const std::string session = guest["session"];
  CHECK(accounts_body(http_get(b.port(), "/api/me", bearer(session)))["player"] == guest["player"]);
  ws_client c(b.port());
  CHECK(c.request({{"type", "authenticate"}, {"session", session}})["type"] == "authenticated");

  // A rated game on one instance is in the other's leaderboard.
  auto made = c.request({{"type", "create_room"},
                         {"seats", 2},
                         {"bots", {nullptr, "greedy"}},
                         {"bot_pause_ms", 0},
                         {"setup", {{"expansions", {"festival"}}}}});
  REQUIRE(c.request({{"type", "join"}, {"room", made["room"]}})["type"] == "joined");
  REQUIRE(c.request({{"type", "start"}})["type"] == "started");
  REQUIRE(c.request({{"type", "resign"}})["type"] == "resigned");
  c.wait_view([](const json& v) { return v["game"]["status"] == "finished"; }, "the end");
  REQUIRE(eventually([&] {
    return accounts_body(http_get(a.port(), "/api/leaderboards/duel_expansions"))["total"] == 2;
  }));
  CHECK(http_post(a.port(), "/api/sign-out", json::object(), bearer(session)).status == 200);
  CHECK(http_get(b.port(), "/api/me", bearer(session)).status == 401);
}
