// Notifications end to end (docs/protocol.md §23, docs/hosting.md "Notifications"): a
// correspondence game's move tells the next seat's player once, by a real webhook to a receiver
// the test starts, signed with the secret the settings gave; the player's games list; the HTTP
// routes' refusals and the one-click unsubscribe.
#include "e2e_client.hpp"
#include "notify/channels.hpp"
#include "process.hpp"
#include "webhook_receiver.hpp"

using namespace e2e;

namespace {

carcassonne::server::config notify_config(const std::string& dir) {
  auto c = test_config();
  c.journal = true;
  c.data_dir = dir;
  c.notify_batch_s = 0;           // no waiting for company: the test's move goes out at once
  c.notify_allow_private = true;  // the receiver is on loopback
  return c;
}

http_reply nt_put(std::uint16_t port, const std::string& target, const json& body,
                  const std::string& session) {
  auto headers = bearer(session);
  headers.emplace("Content-Type", "application/json");
  return http_request(port, http::verb::put, target, headers, body.dump());
}

json nt_guest(std::uint16_t port) {
  const auto r = http_post(port, "/api/guest", json::object());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return json::parse(r.body);
}

}  // namespace

TEST_CASE("e2e notify: a correspondence move tells the next player once, by a signed webhook") {
  temp_dir dir("carcassonne-e2e-notify");
  webhook_receiver hook;
  test_server server(notify_config(dir.str()));
  const auto port = server.port();
  const json ann = nt_guest(port), bob = nt_guest(port);
  const std::string ann_session = ann["session"], bob_session = bob["session"];

  // Bob's webhook: refused at a made-up scheme, taken at the receiver, with its secret once.
  auto bad =
      nt_put(port, "/api/me/notifications", {{"webhook", {{"url", "gopher://x/"}}}}, bob_session);
  CHECK(bad.status == 400);
  CHECK(json::parse(bad.body)["error"] == "bad_url");
  const std::string url = "http://127.0.0.1:" + std::to_string(hook.port()) + "/hook";
  auto set = nt_put(port, "/api/me/notifications", {{"webhook", {{"url", url}}}}, bob_session);
  REQUIRE_MESSAGE(set.status == 200, set.body);
  const std::string secret = json::parse(set.body)["webhook_secret"];
  CHECK(secret.size() == 64);
  CHECK(http_get(port, "/api/me/notifications").status == 401);  // no session

  ws_client a(port), b(port);
  REQUIRE(a.request({{"type", "authenticate"}, {"session", ann_session}})["type"] ==
          "authenticated");
  REQUIRE(b.request({{"type", "authenticate"}, {"session", bob_session}})["type"] ==
          "authenticated");
  auto made = a.request({{"type", "create_room"},
                         {"seats", 2},
                         {"name", "Slow game"},
                         {"match", {{"clock", "correspondence"}, {"move_hours", 24}}}});
  REQUIRE_MESSAGE(made["type"] == "room_created", made.dump());
  const std::string room = made["room"];
  REQUIRE(a.request({{"type", "join"}, {"room", room}})["type"] == "joined");
  REQUIRE(b.request({{"type", "join"}, {"room", room}})["type"] == "joined");
  table t{{&a, &b}, {}};
  t.start(a);
  // Ann (seat 0) plays until the decision is Bob's.
  while (t.acting() == 0) t.step();

  REQUIRE(eventually([&] { return !hook.seen().empty(); }));
  const auto got = hook.seen().front();
  CHECK(got.target == "/hook");
  CHECK(got.headers.at("x-carcassonne-event") == "your_turn");
  const auto body = json::parse(got.body);
  CHECK(body["player"] == bob["player"]["id"]);
  REQUIRE(body["events"].size() == 1);
  CHECK(body["events"][0]["room"] == room);
  CHECK(body["events"][0]["name"] == "Slow game");
  CHECK(got.headers.at("x-carcassonne-delivery") == body["delivery"]);
  const long long ts = std::stoll(got.headers.at("x-carcassonne-timestamp"));
  CHECK(got.headers.at("x-carcassonne-signature") ==
        carcassonne::server::notify::webhook_signature(secret, ts, got.body));

  // Bob's games: his turn, the correspondence deadline about a day away.
  auto games = json::parse(http_get(port, "/api/me/games", bearer(bob_session)).body);
  REQUIRE(games["games"].size() == 1);
  const auto& g = games["games"][0];
  CHECK(g["room"] == room);
  CHECK(g["to_act"] == true);
  CHECK(g["acting"] == 1);
  CHECK(g["clock"] == "correspondence");
  CHECK(g["deadline_ms"].get<std::int64_t>() > g["updated_ms"].get<std::int64_t>() + 86'000'000);
  auto anns = json::parse(http_get(port, "/api/me/games", bearer(ann_session)).body);
  CHECK(anns["games"][0]["to_act"] == false);

  // A few more rounds of the worker: still one delivery.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  CHECK(hook.seen().size() == 1);

  // The link in the message turns your_turn off on the webhook, without a session.
  const std::string unsubscribe = body["unsubscribe"];
  const auto path = unsubscribe.substr(unsubscribe.find("/api/unsubscribe"));
  auto off = http_request(port, http::verb::post, path,
                          {{"Content-Type", "application/x-www-form-urlencoded"}},
                          "List-Unsubscribe=One-Click");
  REQUIRE_MESSAGE(off.status == 200, off.body);
  auto now = json::parse(http_get(port, "/api/me/notifications", bearer(bob_session)).body);
  CHECK(now["events"]["your_turn"] == json::array({"push", "email"}));
  CHECK(http_get(port, "/api/unsubscribe?token=" + path.substr(path.find('=') + 2)).status == 404);
}
