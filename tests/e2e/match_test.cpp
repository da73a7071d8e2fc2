// Match rules over real sockets: match options refused or listed in the lobby, the clock in the
// view, refusals with their codes, undo, resign ending a two-seat game, and a rematch that seats
// both players in a new room they resume with the tokens of `rematch_ready`.
#include "e2e_client.hpp"

using namespace e2e;

TEST_CASE("e2e: match options, clock, undo, resign and rematch") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), s(port);
  auto bad = a.request({{"type", "create_room"}, {"match", {{"clock", "sundial"}}}});
  CHECK(bad["code"] == "bad_match_options");
  const json match{{"clock", "fischer"}, {"initial_s", 600}, {"increment_s", 20}, {"undo", "free"}};
  auto made = a.request({{"type", "create_room"},
                         {"seats", 2},
                         {"setup", {{"script", {{"deck", {"BA/C", "BA/RFr"}}}}}},
                         {"match", match}});
  REQUIRE_MESSAGE(made["type"] == "room_created", made.dump());
  const std::string room = made["room"].get<std::string>();
  auto rooms = a.request({{"type", "list_rooms"}})["rooms"];
  REQUIRE(rooms.size() == 1);
  CHECK(rooms[0]["match"]["clock"] == "fischer");
  CHECK(rooms[0]["match"]["initial_s"] == 600);
  join(a, room, "Ann");
  join(b, room, "Bob");
  spectate(s, room);
  table t{{&a, &b}, {&s}};
  t.start(a);
  const json clock = a.view["room"]["clock"];
  CHECK(clock["running"] == 0);
  CHECK(clock["remaining_ms"][1] == 600000);
  CHECK(clock["remaining_ms"][0].get<int>() > 590000);

  // Refusals: a spectator resigning, an answer without `accept`, an answer to no request.
  CHECK(s.request({{"type", "resign"}})["code"] == "not_seated");
  CHECK(b.request({{"type", "undo_answer"}})["code"] == "bad_message");
  CHECK(b.request({{"type", "undo_answer"}, {"accept", true}})["code"] == "no_undo_request");
  CHECK(a.request({{"type", "rematch"}})["code"] == "game_not_over");

  // A free take-back of Ann's placement, then the same placement and a knight: 4 points.
  const json city{{"type", "place_tile"}, {"x", 0}, {"y", -1}, {"rotation", 180}};
  auto placed = a.request({{"type", "move"}, {"move", city}});
  REQUIRE_MESSAGE(placed["type"] == "move_accepted", placed.dump());
  auto undone = a.request({{"type", "undo"}});
  REQUIRE_MESSAGE(undone["type"] == "undone", undone.dump());
  a.wait_view([](const json& v) { return v["game"]["board"].size() == 1; }, "the tile taken back");
  a.request({{"type", "move"}, {"move", city}});
  auto knight = a.request(
      {{"type", "move"},
       {"move",
        {{"type", "deploy"}, {"figure", "meeple"}, {"x", 0}, {"y", -1}, {"feature", "city0"}}}});
  REQUIRE_MESSAGE(knight["type"] == "move_accepted", knight.dump());
  t.sync(knight["seq"].get<std::uint64_t>());
  CHECK(a.request({{"type", "undo"}})["code"] == "nothing_to_undo");

  // Bob resigns: one seat is left, the game ends; Bob is listed as forfeited.
  auto resigned = b.request({{"type", "resign"}});
  REQUIRE_MESSAGE(resigned["type"] == "resigned", resigned.dump());
  s.wait_view([](const json& v) { return v["game"]["status"] == "finished"; }, "the end");
  CHECK(s.view["game"]["forfeited"] == json::array({1}));
  CHECK(s.view["game"]["scores"] == json::array({4, 0}));
  auto record = http_get(port, "/api/rooms/" + room + "/record");
  CHECK(record.status == 200);

  // Rematch: both accept; each gets its new seat and token, and resumes there.
  CHECK(a.request({{"type", "rematch"}})["type"] == "rematch_answered");
  CHECK(b.request({{"type", "rematch"}, {"accept", true}})["type"] == "rematch_answered");
  const json ready_a = a.wait_type("rematch_ready"), ready_b = b.wait_type("rematch_ready");
  CHECK(ready_a["room"] == ready_b["room"]);
  CHECK(ready_a["room"] != room);
  CHECK(ready_b["seat"] == 1);
  a.request({{"type", "leave"}});
  auto back =
      a.request({{"type", "resume"}, {"room", ready_a["room"]}, {"token", ready_a["token"]}});
  REQUIRE_MESSAGE(back["type"] == "resumed", back.dump());
  CHECK(back["seat"] == 0);
  a.wait_type("snapshot");  // the new room's view
  CHECK(a.view["game"]["status"] == "playing");
  CHECK(a.view["room"]["match"]["clock"] == "fischer");
}
