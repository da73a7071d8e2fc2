// Vacation end to end (docs/protocol.md §21 "Vacation"): the API's days (left, bound per year,
// refusals), GET /api/me, and a correspondence room whose seat holds while its player is away,
// seen by both seats.
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;

namespace {

json vacation_body(const http_reply& r) {
  return json::parse(r.body, nullptr, false);
}

// Whether a view's room part shows held seats (a seat may not have read the clock's start yet).
bool vacation_shown(const json& view) {
  const auto room = view.find("room");
  if (room == view.end()) return false;
  const auto clock = room->find("clock");
  return clock != room->end() && clock->contains("vacation");
}

}  // namespace

TEST_CASE("e2e vacation: days left, the bound per year, refusals, and a room's seat held") {
  temp_dir dir("carcassonne-e2e-vacation");
  auto cfg = test_config();
  cfg.journal = true;
  cfg.data_dir = dir.str();
  cfg.vacation_days_per_year = 10;
  test_server server(cfg);
  const auto port = server.port();
  const auto guest = [&] {
    const auto r = http_post(port, "/api/guest", json::object());
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return vacation_body(r);
  };
  const json ann = guest(), bob = guest();
  const auto as_ann = bearer(ann["session"]);

  auto me = vacation_body(http_get(port, "/api/me", as_ann));
  CHECK(me["vacation"] == json{{"until_ms", nullptr}, {"days_left", 10}, {"days_per_year", 10}});

  // Two signed-in players in a correspondence room (vacation allowed by default).
  ws_client a(port), b(port);
  REQUIRE(a.request({{"type", "authenticate"}, {"session", ann["session"]}})["type"] ==
          "authenticated");
  REQUIRE(b.request({{"type", "authenticate"}, {"session", bob["session"]}})["type"] ==
          "authenticated");
  auto made = a.request({{"type", "create_room"},
                         {"seats", 2},
                         {"match", {{"clock", "correspondence"}, {"move_hours", 24}}}});
  REQUIRE_MESSAGE(made["type"] == "room_created", made.dump());
  const std::string room = made["room"];
  REQUIRE(a.request({{"type", "join"}, {"room", room}})["type"] == "joined");
  REQUIRE(b.request({{"type", "join"}, {"room", room}})["type"] == "joined");
  REQUIRE(a.request({{"type", "start"}})["type"] == "started");
  a.wait_view([](const json& v) { return v["room"].contains("clock"); }, "the clock");
  CHECK(a.view["room"]["match"]["vacation"] == true);

  // Refusals change nothing.
  const auto post = [&](const json& body) {
    return http_post(port, "/api/me/vacation", body, as_ann);
  };
  CHECK(vacation_body(post({{"days", 0}}))["error"] == "bad_days");
  CHECK(vacation_body(post({{"days", "3"}}))["error"] == "bad_days");
  const auto too_many = post({{"days", 11}});
  CHECK(too_many.status == 409);
  CHECK(vacation_body(too_many)["error"] == "too_many_days");
  CHECK(http_post(port, "/api/me/vacation", {{"days", 1}}).status == 401);  // no session

  const auto started = post({{"days", 4}});
  REQUIRE_MESSAGE(started.status == 200, started.body);
  const json v = vacation_body(started)["vacation"];
  CHECK(v["days_left"] == 6);
  CHECK(v["until_ms"].is_number_integer());
  // Both seats see Ann's seat (0) held.
  for (auto* c : {&a, &b}) c->wait_view(vacation_shown, "the vacation in the clock");
  CHECK(a.view["room"]["clock"]["vacation"] == json::array({0}));
  CHECK(b.view["room"]["clock"]["vacation"] == json::array({0}));
  // Extended: the end moves on; more than is left is refused.
  const auto extended = vacation_body(post({{"days", 2}}))["vacation"];
  CHECK(extended["until_ms"].get<std::int64_t>() ==
        v["until_ms"].get<std::int64_t>() + 2 * 86'400'000LL);
  CHECK(extended["days_left"] == 4);
  CHECK(vacation_body(post({{"days", 5}}))["error"] == "too_many_days");
  CHECK(vacation_body(http_get(port, "/api/me", as_ann))["vacation"] == extended);

  // Ended: a day begun is used, the rest given back; the seat's clock runs again.
  const auto ended = http_request(port, http::verb::delete_, "/api/me/vacation", as_ann);
  REQUIRE_MESSAGE(ended.status == 200, ended.body);
  CHECK(vacation_body(ended)["vacation"] ==
        json{{"until_ms", nullptr}, {"days_left", 9}, {"days_per_year", 10}});
  for (auto* c : {&a, &b})
    c->wait_view([](const json& view) { return !vacation_shown(view); }, "the vacation over");
  CHECK(a.view["room"]["clock"]["running"].is_number_integer());
}
