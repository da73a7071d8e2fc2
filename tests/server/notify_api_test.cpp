// The notifications' API as the HTTP routes call it (notify/service.hpp, docs/protocol.md §23):
// settings with their defaults, refused URLs and addresses, the webhook secret shown once, push
// subscriptions, and the one-click unsubscribe with its signed token.
#include <doctest/doctest.h>

#include "notify/channels.hpp"
#include "notify/service.hpp"
#include "notify/unsubscribe.hpp"
#include "temp_dir.hpp"

using namespace carcassonne::server;
using carcassonne::server::test::temp_dir;
using json = nlohmann::json;

namespace {

// The channels' check with the default policy (https only, public addresses only).
bool na_url_check(const std::string& url, std::string& why) {
  return notify::url_acceptable(url, notify::outgoing_policy{}, why);
}

struct na_setup {
  temp_dir dir{"carcassonne-notify-api"};
  std::unique_ptr<notify::service> api;
  na_setup() {
    std::string error;
    auto db = notify::notify_store::open(dir.db(), error);
    REQUIRE_MESSAGE(db, error);
    notify::service_settings s;
    s.vapid_public_key = "BPublicKey";
    s.email_available = true;
    s.url_check = na_url_check;
    s.now_ms = [] { return std::int64_t{1'750'000'000'000}; };
    api = std::make_unique<notify::service>(std::move(db), s, "server secret");
  }
};

}  // namespace

TEST_CASE("notify api: defaults, a webhook with its secret once, bad URLs and addresses") {
  na_setup t;
  const auto first = t.api->settings("p1");
  REQUIRE(first.error.empty());
  CHECK(first.doc["vapid_public_key"] == "BPublicKey");
  CHECK(first.doc["email_available"] == true);
  CHECK(first.doc["events"]["your_turn"] == json::array({"push", "webhook", "email"}));
  CHECK(first.doc["webhook"].is_null());
  CHECK(first.doc["email"].is_null());
  CHECK(first.doc["push"].empty());

  auto put = t.api->put_settings(
      "p1", {{"events", {{"game_over", json::array()}, {"your_turn", {"webhook"}}}},
             {"webhook", {{"url", "https://hooks.example/carcassonne"}}},
             {"email", "ann@example.org"}});
  REQUIRE(put.error.empty());
  CHECK(put.doc["events"]["your_turn"] == json::array({"webhook"}));
  CHECK(put.doc["events"]["game_over"] == json::array());
  CHECK(put.doc["events"]["undo_requested"].size() == 3);
  CHECK(put.doc["webhook"]["url"] == "https://hooks.example/carcassonne");
  CHECK(put.doc["webhook_secret"].get<std::string>().size() == 64);
  CHECK(put.doc["email"] == "ann@example.org");
  // Read again: the secret is not shown; the same URL again makes no new one.
  CHECK_FALSE(t.api->settings("p1").doc.contains("webhook_secret"));
  CHECK_FALSE(
      t.api->put_settings("p1", {{"webhook", {{"url", "https://hooks.example/carcassonne"}}}})
          .doc.contains("webhook_secret"));

  const auto refused = [&](const json& body) { return t.api->put_settings("p1", body).error; };
  CHECK(refused({{"webhook", {{"url", "ftp://hooks.example/x"}}}}) == "bad_url");
  CHECK(refused({{"webhook", {{"url", "https://user:pw@hooks.example/x"}}}}) == "bad_url");
  CHECK(refused({{"webhook", {{"url", "not a url"}}}}) == "bad_url");
  CHECK(refused({{"webhook", {{"url", "https://127.0.0.1:8080/api"}}}}) == "private_address");
  CHECK(refused({{"webhook", {{"url", "https://192.168.1.10/hook"}}}}) == "private_address");
  CHECK(refused({{"webhook", {{"url", "https://[::1]/hook"}}}}) == "private_address");
  CHECK(refused({{"email", "not an address"}}) == "bad_email");
  CHECK(refused({{"email", "a@b\r\nBcc: c@d.org"}}) == "bad_email");
  CHECK(refused({{"events", {{"everything", {"push"}}}}}) == "bad_request");
  CHECK(refused({{"events", {{"your_turn", {"pigeon"}}}}}) == "bad_request");
  CHECK(t.api->put_settings("p1", {{"email", "x"}}).status == 400);
  // Nothing of a refused request was kept.
  CHECK(t.api->settings("p1").doc["email"] == "ann@example.org");

  auto off = t.api->put_settings("p1", {{"webhook", nullptr}, {"email", nullptr}});
  CHECK(off.doc["webhook"].is_null());
  CHECK(off.doc["email"].is_null());
}

TEST_CASE("notify api: push subscriptions, and one-click unsubscribe from each channel") {
  na_setup t;
  const json browser{
      {"endpoint", "https://fcm.googleapis.com/fcm/send/abc"},
      {"keys", {{"p256dh", "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA"}, {"auth", "tBHI"}}}};
  auto added = t.api->add_push("p1", browser);
  REQUIRE(added.error.empty());
  const auto id = added.doc["id"].get<std::string>();
  auto doc = t.api->settings("p1").doc;
  REQUIRE(doc["push"].size() == 1);
  CHECK(doc["push"][0]["host"] == "fcm.googleapis.com");
  CHECK(t.api->add_push("p1", {{"endpoint", "https://10.0.0.1/push"}, {"keys", browser["keys"]}})
            .error == "private_address");
  CHECK(t.api->add_push("p1", {{"endpoint", "https://push.example/x"}}).error == "bad_request");
  CHECK(t.api->remove_push("p2", id).error == "no_such_subscription");  // not hers

  // Mail: the kind off on that channel only.
  auto mail = t.api->unsubscribe(t.api->token("p1", "email", "your_turn", ""));
  REQUIRE(mail.error.empty());
  doc = t.api->settings("p1").doc;
  CHECK(doc["events"]["your_turn"] == json::array({"push", "webhook"}));
  // Push: that browser's subscription only.
  REQUIRE(t.api->unsubscribe(t.api->token("p1", "push", "game_over", id)).error.empty());
  std::string error;
  auto subs = t.api->store().subscriptions("p1", error);
  REQUIRE(subs);
  CHECK((*subs)[0].kinds_off == std::set<std::string>{"game_over"});
  CHECK(t.api->settings("p1").doc["events"]["game_over"].size() == 3);

  // A token changed in any part, or signed with another secret, does nothing.
  auto forged = t.api->token("p1", "email", "game_over", "");
  forged.replace(0, 2, "p2");
  CHECK(t.api->unsubscribe(forged).error == "bad_token");
  CHECK(t.api
            ->unsubscribe(
                notify::unsubscribe_token("another secret", {"p1", "email", "game_over", ""}))
            .status == 404);
  CHECK(t.api->unsubscribe("").error == "bad_token");
  CHECK(t.api->settings("p1").doc["events"]["game_over"].size() == 3);

  CHECK(t.api->remove_push("p1", id).doc["removed"] == true);
  CHECK(t.api->settings("p1").doc["push"].empty());
}
