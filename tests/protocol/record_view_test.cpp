// Game records (shared/spec/game-record.md, "The record") and views: parse_record / parse_setup
// and their error codes, record_to_json, and build_view's legal moves.
#include <doctest/doctest.h>

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"
#include "easter/id.hpp"
#include "easter/options.hpp"
#include "protocol_support.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;
using carcassonne::testing::game_from;
using carcassonne::testing::keys;

namespace {

json two_players() {
  return json::array({{{"name", "Ann"}}, {{"name", "Bob"}}});
}

json setup_with(const std::string& key, json value) {
  json s{{"players", two_players()}, {"seed", "s"}};
  s[key] = std::move(value);
  return s;
}

}  // namespace

TEST_CASE("parse_record reads setup and moves") {
  const auto r = parse_record(R"({
    "format": "carcassonne-record/1",
    "setup": {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}],
              "expansions": [], "options": {"easter.hops": "fixed_2"}, "seed": "2026/room-1",
              "script": {"deck": ["BA/RFr", "BA/Cccc+"]}},
    "moves": [{"seat": 0, "type": "place_tile", "x": 1, "y": 0, "rotation": 0}],
    "expect": {"ignored": true}
  })");
  REQUIRE(r.ok());
  const auto& rec = *r.value;
  CHECK(rec.names == std::vector<std::string>{"Ann", "Bob", "Cid"});
  CHECK(rec.setup.seats == 3);
  CHECK(rec.setup.seed == "2026/room-1");
  REQUIRE(rec.setup.script.deck.has_value());
  CHECK(*rec.setup.script.deck ==
        std::vector<tile_type_id>{*tiles().find("BA/RFr"), *tiles().find("BA/Cccc+")});
  CHECK(rec.moves.size() == 1);
  CHECK(easter::hops_option(rec.setup.options) == easter::hops_rule::fixed_2);

  const json back = record_to_json(rec);
  CHECK(back["format"] == "carcassonne-record/1");
  CHECK(back["setup"] == rec.setup_json);
  CHECK(back["moves"] == json(rec.moves));
  CHECK_FALSE(back.contains("expect"));
  // Written and read again, it is the same record.
  const auto again = parse_record(back.dump());
  REQUIRE(again.ok());
  CHECK(record_to_json(*again.value) == back);
}

TEST_CASE("a record without moves, and a seeded setup without a script") {
  const auto r = parse_record(R"({"format": "carcassonne-record/1",
                                  "setup": {"players": [{"name": "A"}, {"name": "B"}], "seed": "s"}})");
  REQUIRE(r.ok());
  CHECK(r.value->moves.empty());
  CHECK_FALSE(r.value->setup.script.deck.has_value());
}

TEST_CASE("parse_record errors") {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"{\"format\": ", "bad_json"},
      {"", "bad_json"},
      {"[]", "bad_record"},
      {R"({"format": "carcassonne-record/2", "setup": {"players": [{"name": "A"}, {"name": "B"}]}})",
       "bad_record"},
      {R"({"format": 1, "setup": {"players": [{"name": "A"}, {"name": "B"}]}})", "bad_record"},
      {R"({"format": "carcassonne-record/1"})", "bad_record"},
      {R"({"format": "carcassonne-record/1", "setup": {"players": [{"name": "A"}, {"name": "B"}]},
           "moves": {}})",
       "bad_record"},
      {R"({"format": "carcassonne-record/1", "setup": {"players": [{"name": "A"}]}})",
       "bad_seat_count"},
  };
  for (const auto& [text, code] : cases) {
    const auto& input = text;  // clang 14 cannot capture a structured binding
    CAPTURE(input);
    const auto r = parse_record(text);
    CHECK_FALSE(r.ok());
    CHECK(r.error.code == code);
    CHECK_FALSE(r.error.message.empty());
  }
}

TEST_CASE("parse_setup errors") {
  json seven = json::array();
  for (int i = 0; i < 7; ++i)
    seven.push_back({{"name", std::string("P").append(std::to_string(i))}});
  const std::vector<std::pair<json, std::string>> cases{
      {json::array(), "bad_record"},
      {json{{"seed", "s"}}, "bad_record"},
      {setup_with("players", "Ann"), "bad_record"},
      {setup_with("players", {{{"name", 1}}, {{"name", "B"}}}), "bad_record"},
      {setup_with("players", {"Ann", "Bob"}), "bad_record"},
      {setup_with("players", json::array()), "bad_seat_count"},
      {setup_with("players", {{{"name", "A"}}}), "bad_seat_count"},
      {setup_with("players", seven), "bad_seat_count"},
      {setup_with("expansions", "gifts"), "bad_record"},
      {setup_with("expansions", {1}), "bad_record"},
      {setup_with("expansions", {"dragons"}), "unknown_expansion"},
      {setup_with("options", json::array()), "bad_record"},
      {setup_with("options", {{"base.farmers", "none"}}), "unknown_option"},
      {setup_with("options", {{"hills.tiebreak", "coin_toss"}}), "bad_option_value"},
      {setup_with("options", {{"hills.tiebreak", true}}), "bad_option_value"},
      {setup_with("options", {{"easter.shepherd_eggs", "true"}}), "bad_option_value"},
      {setup_with("options", {{"easter.shepherd_eggs", 1}}), "bad_option_value"},
      {setup_with("seed", 17), "bad_record"},
      {setup_with("script", json::array()), "bad_record"},
      {setup_with("script", {{"dragons", json::array()}}), "bad_script"},
      {setup_with("script", {{"deck", "BA/RFr"}}), "bad_script"},
      {setup_with("script", {{"deck", {1}}}), "bad_script"},
      {setup_with("script", {{"deck", {"BA/RFr", "BA/Nope"}}}), "unknown_tile"},
  };
  for (const auto& [setup, code] : cases) {
    const auto input = setup.dump();  // clang 14 cannot capture a structured binding
    CAPTURE(input);
    const auto r = parse_setup(setup);
    CHECK_FALSE(r.ok());
    CHECK(r.error.code == code);
    CHECK_FALSE(r.error.message.empty());
  }
}

TEST_CASE("a scripted tile of a set not in play is refused when the game starts") {
  const auto r = parse_setup(setup_with("script", {{"deck", {"BA/RFr", "HS/RR.h"}}}));
  REQUIRE(r.ok());
  const auto g = new_game(r.value->setup);
  REQUIRE_FALSE(g.ok());
  CHECK(from_engine(g.err()).code == "tile_not_in_play");
}

namespace {

json expected_moves(const game_state& s) {
  json out = json::array();
  for (const auto& m : legal_actions(s)) out.push_back(move_to_json(m, s));
  return out;
}

void check_views(const game_state& s) {
  const std::vector<std::string> names{"Ann", "Bob", "Cid"};
  for (int viewer = spectator; viewer < s.seats; ++viewer) {
    CAPTURE(viewer);
    const json v = build_view(s, viewer, names);
    CHECK(v["viewer"] == (viewer == spectator ? json("spectator") : json(viewer)));
    const bool acts = !s.finished && viewer == to_act(s);
    REQUIRE(v.contains("legal_moves") == acts);
    if (acts) {
      CHECK(v["legal_moves"] == expected_moves(s));
      CHECK_FALSE(v["legal_moves"].empty());
    }
    // The rest of the view is the same for everyone.
    json rest = v;
    rest.erase("viewer");
    rest.erase("legal_moves");
    json spec = build_view(s, spectator, names);
    spec.erase("viewer");
    CHECK(rest == spec);
  }
}

}  // namespace

TEST_CASE("build_view lists the legal moves for the seat to act only") {
  game_state s =
      game_from(R"({"setup": {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}],
                                         "seed": "views"}})");
  int decisions = 0, figure_steps = 0;
  while (!s.finished) {
    if (decisions % 7 == 0 || s.awaiting == decision::figure) check_views(s);
    figure_steps += s.awaiting == decision::figure;
    const auto moves = legal_actions(s);
    REQUIRE(apply_in_place(s, moves[static_cast<std::size_t>(decisions) % moves.size()]).ok());
    ++decisions;
  }
  CHECK(figure_steps > 10);
  check_views(s);
  const json end = build_view(s, 0, {"Ann", "Bob", "Cid"});
  CHECK(end["status"] == "finished");
  CHECK(end["awaiting"].is_null());
  CHECK(end["active"].is_null());
  CHECK(end["tiles_left"] == 0);
}

TEST_CASE("a view's top-level fields") {
  const game_state s = game_from(R"({"setup": {"players": [{"name": "Ann"}, {"name": "Bob"}],
                                               "script": {"deck": ["BA/RFr", "BA/C"]}}})");
  const json v = build_view(s, 1, {"Ann", "Bob"});
  for (const char* key : {"status", "viewer", "turn", "active", "awaiting", "scores", "players",
                          "tile", "tiles_left", "board", "figures", "discarded"}) {
    CAPTURE(key);
    CHECK(v.contains(key));
  }
  CHECK(v["status"] == "playing");
  CHECK(v["awaiting"] == json{{"seat", 0}, {"decision", "place_tile"}});
  CHECK(v["tile"] == "BA/RFr");
  CHECK(v["tiles_left"] == 1);
  CHECK(v["scores"] == json::array({0, 0}));
  CHECK(v["players"][1] ==
        json{{"seat", 1}, {"name", "Bob"}, {"score", 0}, {"supply", {{"meeple", 7}}}});
  CHECK(v["board"] == json::array({{{"x", 0}, {"y", 0}, {"tile", "BA/RCr"}, {"rotation", 0}}}));
  CHECK(v["figures"] == json::array());
  CHECK(keys(v).count("supply") == 0);
  CHECK(keys(v).count("deck") == 0);
}

TEST_CASE(
    "Easter views: a bunny go is decided by its seat, with the roll and the visited squares") {
  game_state s =
      game_from(R"({"setup": {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}],
                                         "expansions": ["easter"], "seed": "easter-views"}})");
  int goes = 0, others = 0, decisions = 0;
  while (!s.finished) {
    const json v = build_view(s, spectator, {"Ann", "Bob", "Cid"});
    CHECK(v["eggs"].size() == 3);
    if (s.awaiting == easter::decision_bunny) {
      check_views(s);
      ++goes;
      others += s.deciding != s.active;
      CHECK(v["awaiting"] == json{{"seat", s.deciding}, {"decision", "bunny"}});
      CHECK(v["active"] == s.active);
      const auto& go = v["bunny_go"];
      CHECK(go["seat"] == s.deciding);
      CHECK(go["roll"].get<int>() >= 1);
      CHECK(go["roll"].get<int>() <= 3);
      REQUIRE(!go["visited"].empty());
      CHECK(go["visited"].back() == json::array({v["bunny"]["x"], v["bunny"]["y"]}));
    } else {
      CHECK(v["bunny_go"].is_null());
    }
    const auto moves = legal_actions(s);
    REQUIRE(apply_in_place(s, moves[static_cast<std::size_t>(decisions++) % moves.size()]).ok());
  }
  CHECK(goes > 5);
  CHECK(others > 2);
}
