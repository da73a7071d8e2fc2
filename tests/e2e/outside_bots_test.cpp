// Outside bots end to end (docs/protocol.md §23 "Outside bots"): the upgrade over HTTP and its
// refusals with their statuses, the API token on HTTP and the WebSocket, a bot's seek refused,
// and its rated game against a server bot, in its profile and the leaderboard marked as a bot.
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;

namespace {

json ob_body(const http_reply& r) {
  return json::parse(r.body, nullptr, false);
}

}  // namespace

TEST_CASE("e2e outside bots: the upgrade, its token, no seek, a rated game marked as a bot's") {
  temp_dir dir("carcassonne-e2e-outside-bots");
  auto cfg = test_config();
  cfg.journal = true;
  cfg.data_dir = dir.str();
  test_server server(cfg);
  const auto port = server.port();

  const auto guest_made = http_post(port, "/api/guest", json::object());
  REQUIRE(guest_made.status == 201);
  const std::string session = ob_body(guest_made)["session"];
  const std::string id = ob_body(guest_made)["player"]["id"];
  const auto as_guest = http_post(port, "/api/me/bot", json::object(), bearer(session));
  CHECK(as_guest.status == 403);
  CHECK(ob_body(as_guest)["error"] == "guest_account");
  CHECK(http_post(port, "/api/me/bot", json::object()).status == 401);

  REQUIRE(http_post(port, "/api/me/name",
                    {{"name", "Robo Dana"}, {"password", "tiles and meeples"}}, bearer(session))
              .status == 200);
  const auto made = http_post(port, "/api/me/bot", json::object(), bearer(session));
  REQUIRE_MESSAGE(made.status == 200, made.body);
  CHECK(ob_body(made)["player"] ==
        json{{"id", id}, {"name", "Robo Dana"}, {"guest", false}, {"bot", true}});
  const std::string token = ob_body(made)["token"];
  CHECK(token.size() == 68);
  const auto twice = http_post(port, "/api/me/bot", json::object(), bearer(token));
  CHECK(twice.status == 409);
  CHECK(ob_body(twice)["error"] == "already_bot");
  CHECK(ob_body(http_get(port, "/api/me", bearer(token)))["player"]["bot"] == true);

  // The token signs the WebSocket in; a bot does not seek.
  ws_client c(port);
  const auto who = c.request({{"type", "authenticate"}, {"session", token}});
  REQUIRE_MESSAGE(who["type"] == "authenticated", who.dump());
  CHECK(who["player"]["bot"] == true);
  CHECK(c.request({{"type", "seek"}})["code"] == "bot_account");

  // A rated game against the random bot, ended by the bot account's resignation.
  auto room_made = c.request(
      {{"type", "create_room"}, {"seats", 2}, {"bots", {nullptr, "random"}}, {"bot_pause_ms", 0}});
  const std::string room = room_made["room"];
  REQUIRE(c.request({{"type", "join"}, {"room", room}})["type"] == "joined");
  REQUIRE(c.request({{"type", "start"}})["type"] == "started");
  REQUIRE(c.request({{"type", "resign"}})["type"] == "resigned");
  c.wait_view([](const json& v) { return v["game"]["status"] == "finished"; }, "the end");
  REQUIRE(eventually(
      [&] { return ob_body(http_get(port, "/api/players/" + id))["ratings"].size() == 1; }));
  const json profile = ob_body(http_get(port, "/api/players/" + id));
  CHECK(profile["player"]["bot"] == true);
  CHECK(profile["ratings"][0]["pool"] == "duel");
  CHECK(profile["games"]["games"][0]["seats"][0]["bot"] == true);
  const json board = ob_body(http_get(port, "/api/leaderboards/duel"));
  REQUIRE(board["total"] == 2);
  CHECK(board["players"][1]["player"] == json{{"id", id}, {"name", "Robo Dana"}, {"bot", true}});

  // A new token replaces the old one; a person has none.
  const auto rotated = http_post(port, "/api/me/bot/token", json::object(), bearer(token));
  REQUIRE(rotated.status == 200);
  const std::string fresh = ob_body(rotated)["token"];
  CHECK(http_get(port, "/api/me", bearer(token)).status == 401);
  CHECK(http_get(port, "/api/me", bearer(fresh)).status == 200);
  const auto person = ob_body(http_post(port, "/api/guest", json::object()));
  const auto not_bot =
      http_post(port, "/api/me/bot/token", json::object(), bearer(person["session"]));
  CHECK(not_bot.status == 409);
  CHECK(ob_body(not_bot)["error"] == "not_a_bot");

  // A person who played a rated game cannot become a bot any more.
  const std::string person_session = person["session"];
  const std::string person_id = person["player"]["id"];
  REQUIRE(http_post(port, "/api/me/name",
                    {{"name", "Erin Player"}, {"password", "tiles and meeples"}},
                    bearer(person_session))
              .status == 200);
  ws_client p(port);
  REQUIRE(p.request({{"type", "authenticate"}, {"session", person_session}})["type"] ==
          "authenticated");
  const std::string second = p.request({{"type", "create_room"},
                                        {"seats", 2},
                                        {"bots", {nullptr, "random"}},
                                        {"bot_pause_ms", 0}})["room"];
  REQUIRE(p.request({{"type", "join"}, {"room", second}})["type"] == "joined");
  REQUIRE(p.request({{"type", "start"}})["type"] == "started");
  REQUIRE(p.request({{"type", "resign"}})["type"] == "resigned");
  REQUIRE(eventually(
      [&] { return ob_body(http_get(port, "/api/players/" + person_id))["ratings"].size() == 1; }));
  const auto late = http_post(port, "/api/me/bot", json::object(), bearer(person_session));
  CHECK(late.status == 409);
  CHECK(ob_body(late)["error"] == "has_rated_games");
  CHECK(ob_body(http_get(port, "/api/me", bearer(person_session)))["player"]["bot"] == false);
}
