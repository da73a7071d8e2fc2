// The JSON codec (shared/spec/game-record.md, "Moves"; engine/events.hpp): moves both ways, the
// stable error codes of malformed moves, and the fields of every event type.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "easter/id.hpp"
#include "protocol_support.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;
using carcassonne::testing::game_from;
using carcassonne::testing::keys;

TEST_CASE("every legal move of a seeded game survives move_to_json and move_from_json") {
  game_state s = game_from(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
                                         "seed": "codec-round-trip"}})");
  std::set<std::string> types;
  std::size_t checked = 0;
  for (int step = 0; !s.finished; ++step) {
    const auto moves = legal_actions(s);
    REQUIRE_FALSE(moves.empty());
    for (const auto& m : moves) {
      const json j = move_to_json(m, s);
      types.insert(j["type"].get<std::string>());
      const auto back = move_from_json(j, s);
      REQUIRE_MESSAGE(back.ok(), j.dump() << ": " << back.error.code);
      CHECK(*back.value == m);
      CHECK(move_to_json(*back.value, s) == j);
      ++checked;
    }
    // Deploy often (on the last listed feature), otherwise the first move.
    const auto& pick = moves.size() > 1 && step % 3 != 0 ? moves[moves.size() - 2] : moves.front();
    REQUIRE(apply_in_place(s, pick).ok());
  }
  CHECK(types == std::set<std::string>{"place_tile", "deploy", "pass"});
  CHECK(checked > 500);
}

TEST_CASE("every legal bunny move of a seeded Easter game survives the codec") {
  game_state s = game_from(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
                                         "expansions": ["easter"], "seed": "codec-bunny"}})");
  std::size_t checked = 0;
  for (int step = 0; !s.finished; ++step) {
    const auto moves = legal_actions(s);
    REQUIRE_FALSE(moves.empty());
    for (const auto& m : moves) {
      if (m.type != easter::move_bunny) continue;
      const json j = move_to_json(m, s);
      REQUIRE(j["path"].size() == m.path_length);
      const auto back = move_from_json(j, s);
      REQUIRE_MESSAGE(back.ok(), j.dump() << ": " << back.error.code);
      CHECK(*back.value == m);
      ++checked;
    }
    REQUIRE(apply_in_place(s, moves[static_cast<std::size_t>(step) % moves.size()]).ok());
  }
  CHECK(checked > 10);
}

TEST_CASE("event_to_json: the Easter events (EX-15 with its scripted dice, then final scoring)") {
  game_state s = game_from(R"({"setup": {"players": [{"name": "R"}, {"name": "B"}, {"name": "G"}],
    "expansions": ["easter"],
    "script": {"deck": ["BA/RFr", "BA/RFr", "BA/L", "BA/RFr", "BA/RFr", "BA/RFr", "EA/01"],
               "dice": [2, 1, 3]}}})");
  event_log log;
  for (const char* text :
       {R"({"seat":0,"type":"place_tile","x":-1,"y":0,"rotation":0})",
        R"({"seat":0,"type":"pass"})", R"({"seat":1,"type":"place_tile","x":1,"y":0,"rotation":0})",
        R"({"seat":1,"type":"deploy","figure":"meeple","x":1,"y":0,"feature":"road0"})",
        R"({"seat":2,"type":"place_tile","x":1,"y":1,"rotation":0})",
        R"({"seat":2,"type":"deploy","figure":"meeple","x":1,"y":1,"feature":"monastery0"})",
        R"({"seat":0,"type":"place_tile","x":2,"y":0,"rotation":0})",
        R"({"seat":0,"type":"deploy","figure":"meeple","x":2,"y":0,"feature":"field1"})",
        R"({"seat":1,"type":"place_tile","x":-2,"y":0,"rotation":0})",
        R"({"seat":1,"type":"pass"})",
        R"({"seat":2,"type":"place_tile","x":-3,"y":0,"rotation":0})",
        R"({"seat":2,"type":"pass"})",
        R"({"seat":0,"type":"place_tile","x":3,"y":0,"rotation":0})"}) {
    auto m = move_from_json(json::parse(text), s);
    REQUIRE_MESSAGE(m.ok(), text);
    REQUIRE_MESSAGE(apply_in_place(s, *m.value).ok(), text);
  }
  for (const char* text :
       {R"({"seat":0,"type":"pass"})", R"({"seat":0,"type":"bunny","path":[[2,0],[1,0]]})",
        R"({"seat":1,"type":"bunny","path":[[1,1]]})"}) {
    auto m = move_from_json(json::parse(text), s);
    REQUIRE_MESSAGE(m.ok(), text);
    REQUIRE_MESSAGE(apply_in_place(s, *m.value, &log).ok(), text);
  }
  REQUIRE(s.finished);
  std::vector<json> easter;
  for (const auto& e : log)
    if (e.type >= easter::event_bunny_placed ||
        (e.type == event_type::points && e.value == static_cast<int>(easter::reason_eggs)))
      easter.push_back(event_to_json(e));
  const std::vector<json> expected{
      {{"type", "die_rolled"}, {"seat", 0}, {"roll", 2}},
      {{"type", "bunny_moved"}, {"seat", 0}, {"x", 2}, {"y", 0}},
      {{"type", "eggs_collected"}, {"seat", 0}, {"x", 2}, {"y", 0}, {"eggs", 1}},
      {{"type", "bunny_moved"}, {"seat", 0}, {"x", 1}, {"y", 0}},
      {{"type", "eggs_collected"}, {"seat", 1}, {"x", 1}, {"y", 0}, {"eggs", 1}},
      {{"type", "die_rolled"}, {"seat", 1}, {"roll", 1}},
      {{"type", "bunny_moved"}, {"seat", 1}, {"x", 1}, {"y", 1}},
      {{"type", "eggs_collected"}, {"seat", 2}, {"x", 1}, {"y", 1}, {"eggs", 1}},
      {{"type", "die_rolled"}, {"seat", 2}, {"roll", 3}},
      {{"type", "bunny_stuck"}, {"seat", 2}},
      {{"type", "points"}, {"seat", 0}, {"points", 10}, {"final", true}, {"reason", "eggs"}},
      {{"type", "points"}, {"seat", 1}, {"points", 10}, {"final", true}, {"reason", "eggs"}},
      {{"type", "points"}, {"seat", 2}, {"points", 10}, {"final", true}, {"reason", "eggs"}}};
  CHECK(easter == expected);
}

TEST_CASE("event_to_json: bunny_placed and nest_scored name their square") {
  event placed{.type = easter::event_bunny_placed, .seat = 1, .at = {3, -2}};
  CHECK(event_to_json(placed) == json{{"type", "bunny_placed"}, {"seat", 1}, {"x", 3}, {"y", -2}});
  event nest{.type = easter::event_nest_scored, .seat = 0, .at = {0, 1}};
  CHECK(event_to_json(nest) == json{{"type", "nest_scored"}, {"seat", 0}, {"x", 0}, {"y", 1}});
}

TEST_CASE("record forms of the base moves") {
  game_state s = game_from(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}],
                                         "script": {"deck": ["BA/RFr", "BA/RFr"]}}})");
  const json place = {{"seat", 0}, {"type", "place_tile"}, {"x", 1}, {"y", 0}, {"rotation", 180}};
  auto m = move_from_json(place, s);
  REQUIRE(m.ok());
  CHECK(m.value->type == move_type::place_tile);
  CHECK(m.value->at == square_pos{1, 0});
  CHECK(m.value->rotation == 2);
  CHECK(move_to_json(*m.value, s) == place);
  REQUIRE(apply_in_place(s, *m.value).ok());

  const json deploy = {{"seat", 0}, {"type", "deploy"}, {"figure", "meeple"},
                       {"x", 1},    {"y", 0},           {"feature", "field1"}};
  m = move_from_json(deploy, s);
  REQUIRE(m.ok());
  CHECK(m.value->feature == *tiles()[*tiles().find("BA/RFr")].segment_index("field1"));
  CHECK(move_to_json(*m.value, s) == deploy);
  // "figure" defaults to a meeple; "protect": false is the default and is not written back.
  json short_deploy = deploy;
  short_deploy.erase("figure");
  short_deploy["protect"] = false;
  CHECK(move_from_json(short_deploy, s).value == m.value);

  const json pass = {{"seat", 0}, {"type", "pass"}};
  CHECK(move_to_json(*move_from_json(pass, s).value, s) == pass);
}

TEST_CASE("record forms of the expansion moves round-trip in the codec") {
  game_state s =
      game_from(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}], "seed": "x"}})");
  for (const json& j : {
           json{{"seat", 1}, {"type", "flock"}, {"choice", "expand"}},
           json{{"seat", 1}, {"type", "flock"}, {"choice", "herd"}},
           json{{"seat", 0}, {"type", "choose_tile"}, {"index", 1}},
           json{{"seat", 0}, {"type", "open_gift"}, {"card", "take_two"}},
           json{{"seat", 0},
                {"type", "open_gift"},
                {"card", "road_sweeper"},
                {"x", 0},
                {"y", 0},
                {"feature", "road0"}},
           json{{"seat", 0},
                {"type", "open_gift"},
                {"card", "change_position"},
                {"x", 0},
                {"y", 0},
                {"feature", "road0"},
                {"to", "city0"},
                {"protect", true}},
           json{{"seat", 0}, {"type", "protect"}, {"x", 0}, {"y", 0}, {"feature", "city0"}},
           json{{"seat", 0},
                {"type", "return_figure"},
                {"figure", "shepherd"},
                {"x", 0},
                {"y", 0},
                {"feature", "field1"}},
           json{{"seat", 2}, {"type", "bunny"}, {"path", {{1, 0}, {1, 1}, {0, 1}}}},
       }) {
    CAPTURE(j.dump());
    const auto m = move_from_json(j, s);
    REQUIRE(m.ok());
    CHECK(move_to_json(*m.value, s) == j);
  }
}

TEST_CASE("malformed moves give stable error codes") {
  game_state s = game_from(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}],
                                         "script": {"deck": ["BA/RFr", "BA/RFr"]}}})");
  REQUIRE(apply_in_place(
              s, *move_from_json(
                      json::parse(R"({"seat":0,"type":"place_tile","x":1,"y":0,"rotation":0})"), s)
                      .value)
              .ok());
  const std::vector<std::pair<const char*, const char*>> cases{
      {R"([1, 2])", "malformed_move"},
      {R"("pass")", "malformed_move"},
      {R"({"type": "pass"})", "malformed_move"},
      {R"({"seat": "0", "type": "pass"})", "malformed_move"},
      {R"({"seat": 6, "type": "pass"})", "malformed_move"},
      {R"({"seat": -1, "type": "pass"})", "malformed_move"},
      {R"({"seat": 0.5, "type": "pass"})", "malformed_move"},
      {R"({"seat": 0})", "malformed_move"},
      {R"({"seat": 0, "type": 2})", "malformed_move"},
      {R"({"seat": 0, "type": "fly"})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "y": 0, "rotation": 0})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "x": 1, "rotation": 0})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "x": 1, "y": 0})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "x": "1", "y": 0, "rotation": 0})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "x": 1, "y": 0, "rotation": "90"})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "x": 1, "y": 0, "rotation": 90.0})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "x": 99999, "y": 0, "rotation": 0})", "malformed_move"},
      {R"({"seat": 0, "type": "place_tile", "x": 1, "y": 0, "rotation": 45})", "bad_rotation"},
      {R"({"seat": 0, "type": "place_tile", "x": 1, "y": 0, "rotation": 360})", "bad_rotation"},
      {R"({"seat": 0, "type": "place_tile", "x": 1, "y": 0, "rotation": -90})", "bad_rotation"},
      {R"({"seat": 0, "type": "deploy", "x": 1, "y": 0})", "malformed_move"},
      {R"({"seat": 0, "type": "deploy", "x": 1, "y": 0, "feature": 0})", "malformed_move"},
      {R"({"seat": 0, "type": "deploy", "y": 0, "feature": "road0"})", "malformed_move"},
      {R"({"seat": 0, "type": "deploy", "x": 1, "y": 0, "feature": "city0"})", "unknown_feature"},
      {R"({"seat": 0, "type": "deploy", "x": 5, "y": 5, "feature": "road0"})", "unknown_feature"},
      {R"({"seat": 0, "type": "deploy", "figure": "dragon", "x": 1, "y": 0, "feature": "road0"})",
       "malformed_move"},
      {R"({"seat": 0, "type": "deploy", "figure": 1, "x": 1, "y": 0, "feature": "road0"})",
       "malformed_move"},
      {R"({"seat": 0, "type": "deploy", "x": 1, "y": 0, "feature": "road0", "protect": 1})",
       "malformed_move"},
      {R"({"seat": 0, "type": "flock", "choice": "eat"})", "malformed_move"},
      {R"({"seat": 0, "type": "flock"})", "malformed_move"},
      {R"({"seat": 0, "type": "choose_tile", "index": 2})", "malformed_move"},
      {R"({"seat": 0, "type": "open_gift", "card": "joker"})", "malformed_move"},
      {R"({"seat": 0, "type": "open_gift", "card": "synod", "x": 1, "y": 0, "feature": "abbey0"})",
       "unknown_feature"},
      {R"({"seat": 0, "type": "bunny", "path": []})", "malformed_move"},
      {R"({"seat": 0, "type": "bunny", "path": [[1, 0], [2, 0], [3, 0], [4, 0]]})",
       "malformed_move"},
      {R"({"seat": 0, "type": "bunny", "path": [[1, 0, 2]]})", "malformed_move"},
      {R"({"seat": 0, "type": "bunny", "path": [1, 0]})", "malformed_move"},
      {R"({"seat": 0, "type": "bunny"})", "malformed_move"},
      {R"({"seat": 0, "type": "bunny", "path": [[65537, 0]]})", "malformed_move"},
      {R"({"seat": 0, "type": "bunny", "path": [[1.5, 0]]})", "malformed_move"},
  };
  for (const auto& [text, code] : cases) {
    const auto& input = text;  // clang 14 cannot capture a structured binding
    CAPTURE(input);
    const auto m = move_from_json(json::parse(text), s);
    CHECK_FALSE(m.ok());
    CHECK(m.error.code == code);
    CHECK_FALSE(m.error.message.empty());
  }
}

TEST_CASE("proto_error and engine errors in JSON") {
  CHECK(to_json(proto_error{"malformed_move", "bad"}) ==
        json{{"code", "malformed_move"}, {"message", "bad"}});
  const auto e = from_engine(make_error(error_code::feature_occupied, "taken"));
  CHECK(e.code == "feature_occupied");
  CHECK(e.message == "taken");
  std::set<std::string> names;
  for (int c = 0; c < error_code_count; ++c)
    names.insert(std::string(code_name(static_cast<error_code>(c))));
  CHECK(names.size() == static_cast<std::size_t>(error_code_count));
}

TEST_CASE("event_to_json: the fields of every event type") {
  // EX-02 (b): seat 0 puts a knight on (1,0), seat 1 completes the city with BA/C@180 at (1,-1).
  game_state s = game_from(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}],
                                         "script": {"deck": ["BA/RCr", "BA/C"]}}})");
  event_log log;
  const auto apply_json = [&](const char* text) {
    auto m = move_from_json(json::parse(text), s);
    REQUIRE(m.ok());
    REQUIRE(apply_in_place(s, *m.value, &log).ok());
  };
  apply_json(R"({"seat":0,"type":"place_tile","x":1,"y":0,"rotation":0})");
  apply_json(R"({"seat":0,"type":"deploy","figure":"meeple","x":1,"y":0,"feature":"city0"})");
  apply_json(R"({"seat":1,"type":"place_tile","x":1,"y":-1,"rotation":180})");
  apply_json(R"({"seat":1,"type":"pass"})");
  REQUIRE(s.finished);

  std::map<std::string, std::vector<json>> by_type;
  for (const auto& e : log) {
    const json j = event_to_json(e);
    by_type[j["type"].get<std::string>()].push_back(j);
  }
  const auto first = [&](const std::string& type) {
    REQUIRE_MESSAGE(by_type.count(type), type);
    return by_type[type].front();
  };
  CHECK(first("turn_started") == json{{"type", "turn_started"}, {"seat", 1}});
  CHECK(first("tile_drawn") == json{{"type", "tile_drawn"}, {"seat", 1}, {"tile", "BA/C"}});
  CHECK(first("tile_placed") == json{{"type", "tile_placed"},
                                     {"seat", 0},
                                     {"tile", "BA/RCr"},
                                     {"x", 1},
                                     {"y", 0},
                                     {"rotation", 0}});
  CHECK(by_type["tile_placed"][1]["rotation"] == 180);
  CHECK(first("figure_deployed") == json{{"type", "figure_deployed"},
                                         {"seat", 0},
                                         {"figure", "meeple"},
                                         {"x", 1},
                                         {"y", 0},
                                         {"feature", "city0"},
                                         {"kind", "city"}});
  CHECK(first("figure_returned") == json{{"type", "figure_returned"},
                                         {"seat", 0},
                                         {"figure", "meeple"},
                                         {"x", 1},
                                         {"y", 0},
                                         {"feature", "city0"},
                                         {"kind", "city"}});
  const json done = first("feature_completed");
  CHECK(keys(done) ==
        std::set<std::string>{"type", "kind", "x", "y", "feature", "points", "owners"});
  CHECK(done["kind"] == "city");
  CHECK(done["points"] == 4);
  CHECK(done["owners"] == json::array({0}));
  const json points = first("points");
  CHECK(keys(points) ==
        std::set<std::string>{"type", "seat", "kind", "x", "y", "feature", "points", "final"});
  CHECK(points["seat"] == 0);
  CHECK(points["points"] == 4);
  CHECK(points["kind"] == "city");
  CHECK(points["final"] == false);
  CHECK(first("game_finished") == json{{"type", "game_finished"}});
  // The turns: each draws, places and starts in seat order.
  CHECK(by_type["turn_started"].size() == 1);  // seat 0's first turn began in new_game
}

TEST_CASE("event_to_json: a tile without a legal placement is discarded") {
  // BA/C@180 closes the start city: no open square takes BA/Cccc+ (base 4.1.4).
  game_state s = game_from(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}],
                                         "script": {"deck": ["BA/C", "BA/Cccc+", "BA/RFr"]}}})");
  event_log log;
  for (const char* text : {R"({"seat":0,"type":"place_tile","x":0,"y":-1,"rotation":180})",
                           R"({"seat":0,"type":"pass"})"}) {
    auto m = move_from_json(json::parse(text), s);
    REQUIRE(m.ok());
    REQUIRE(apply_in_place(s, *m.value, &log).ok());
  }
  std::vector<json> draws;
  for (const auto& e : log)
    if (e.type == event_type::tile_drawn || e.type == event_type::tile_discarded)
      draws.push_back(event_to_json(e));
  CHECK(draws == std::vector<json>{{{"type", "tile_drawn"}, {"seat", 1}, {"tile", "BA/Cccc+"}},
                                   {{"type", "tile_discarded"}, {"seat", 1}, {"tile", "BA/Cccc+"}},
                                   {{"type", "tile_drawn"}, {"seat", 1}, {"tile", "BA/RFr"}}});
  CHECK(s.awaiting == decision::place_tile);
  CHECK(s.active == 1);
}

TEST_CASE("event_to_json: final scoring points are marked final") {
  // EX-03 (shared/rules/examples.md): the supply is empty after seat 0's road.
  game_state s = game_from(R"({"setup": {"players": [{"name": "R"}, {"name": "B"}, {"name": "G"}],
                                         "script": {"deck": ["BA/C", "BA/Cc+", "BA/L", "BA/RFr"]}}})");
  event_log log;
  for (const char* text : {R"({"seat":0,"type":"place_tile","x":0,"y":-1,"rotation":180})",
                           R"({"seat":0,"type":"deploy","x":0,"y":-1,"feature":"field0"})",
                           R"({"seat":1,"type":"place_tile","x":1,"y":-1,"rotation":90})",
                           R"({"seat":1,"type":"deploy","x":1,"y":-1,"feature":"city0"})",
                           R"({"seat":2,"type":"place_tile","x":0,"y":1,"rotation":0})",
                           R"({"seat":2,"type":"deploy","x":0,"y":1,"feature":"monastery0"})",
                           R"({"seat":0,"type":"place_tile","x":1,"y":0,"rotation":0})",
                           R"({"seat":0,"type":"deploy","x":1,"y":0,"feature":"road0"})"}) {
    auto m = move_from_json(json::parse(text), s);
    REQUIRE(m.ok());
    REQUIRE(apply_in_place(s, *m.value, &log).ok());
  }
  REQUIRE(s.finished);
  std::vector<json> finals;
  for (const auto& e : log)
    if (e.type == event_type::points && e.final) finals.push_back(event_to_json(e));
  // README "End of game": roads, cities, monasteries, then fields.
  REQUIRE(finals.size() == 4);
  CHECK(finals[0]["kind"] == "road");
  CHECK(finals[0]["seat"] == 0);
  CHECK(finals[0]["points"] == 2);
  CHECK(finals[1]["kind"] == "city");
  CHECK(finals[1]["seat"] == 1);
  CHECK(finals[1]["points"] == 2);
  CHECK(finals[2]["kind"] == "monastery");
  CHECK(finals[2]["seat"] == 2);
  CHECK(finals[2]["points"] == 3);
  CHECK(finals[3]["kind"] == "field");
  CHECK(finals[3]["seat"] == 0);
  CHECK(finals[3]["points"] == 3);
  for (const auto& f : finals) CHECK(f["final"] == true);
  CHECK(event_to_json(log.back()) == json{{"type", "game_finished"}});
}
