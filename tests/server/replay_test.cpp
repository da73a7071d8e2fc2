// The replay command (shared/spec/game-record.md, "The replay command"), run in-process: every
// committed record replays to its "expect"ed result (exit 0), malformed records exit 2 and
// illegal or malformed moves exit 3, each with the documented error object.
#include <doctest/doctest.h>

#include <set>

#include "replay_support.hpp"

using namespace carcassonne::testing;

namespace {

// Checks every key of a record's "expect" object against the replayed state.
void check_expect(const json& view, const json& expect) {
  for (const auto& [key, want] : expect.items()) {
    const std::string name = key;  // clang 14 cannot capture a structured binding
    CAPTURE(name);
    if (key == "supply") {
      REQUIRE(view["players"].size() == want.size());
      for (std::size_t seat = 0; seat < want.size(); ++seat)
        CHECK(view["players"][seat]["supply"]["meeple"] == want[seat]);
    } else {
      REQUIRE(view.contains(key));
      CHECK(view[key] == want);
    }
  }
}

}  // namespace

TEST_CASE("the committed records include the base examples and seeded full games") {
  std::set<std::string> names;
  for (const auto& p : all_records()) names.insert(p.filename().string());
  for (const char* n : {"ex01_road_tie.json",
                        "ex02a_city_pennant.json",
                        "ex02b_city_completed_by_other.json",
                        "ex03_final_scoring.json",
                        "full_2p_seeded.json",
                        "full_3p_seeded.json",
                        "full_5p_seeded.json",
                        "discard_unplaceable.json",
                        "discard_last_tile.json",
                        "ex04_hill_tiebreak.json",
                        "ex04_hill_tiebreak_count.json",
                        "ex05_vineyards.json",
                        "ex06_shepherd.json",
                        "ex07_tile_under_hill.json",
                        "full_3p_hills_and_sheep_seeded.json",
                        "ex17_festival_return.json",
                        "ex18_festival_shepherd_inner_field.json",
                        "full_4p_hills_festival_seeded.json",
                        "ex12_protect_for_4.json",
                        "ex13_revolt.json",
                        "full_2p_revolts_seeded.json",
                        "full_5p_three_expansions_seeded.json",
                        "ex08_gift_receipt.json",
                        "ex11_road_sweeper.json",
                        "full_4p_four_expansions_seeded.json",
                        "full_3p_gifts_seeded.json",
                        "ex14_easter_nest.json",
                        "ex15_easter_bunny_hig.json",
                        "ex16_easter_egg_points.json",
                        "easter_stuck_bunny_4p.json",
                        "easter_variants_hig.json",
                        "full_4p_easter_hills_festival_seeded.json",
                        "full_3p_all_expansions_seeded.json",
                        "ex09_synod.json",
                        "ex10_cash_out.json"}) {
    CAPTURE(n);
    CHECK(names.count(n) == 1);
  }
}

TEST_CASE("every record replays to its expected result") {
  const auto records = all_records();
  REQUIRE(records.size() >= 9);
  for (const auto& path : records) {
    CAPTURE(path.filename().string());
    const json record = json::parse(read_text(path));
    REQUIRE(record.contains("expect"));
    const auto r = replay_text(read_text(path));
    REQUIRE_MESSAGE(r.code == 0, r.text);
    CHECK(r.out["moves"] == record["moves"].size());
    check_expect(r.out, record["expect"]);

    // Every view of the same record agrees on the public result.
    const int seats = static_cast<int>(record["setup"]["players"].size());
    for (int viewer = -1; viewer < seats; ++viewer) {
      const auto v =
          replay_text(read_text(path), {"--as", viewer < 0 ? "spectator" : std::to_string(viewer)});
      REQUIRE(v.code == 0);
      CHECK(v.out["status"] == r.out["status"]);
      CHECK(v.out["scores"] == r.out["scores"]);
    }
  }
}

TEST_CASE("seeded records play the whole supply: 71 turns, scores pinned") {
  for (const char* name : {"full_2p_seeded.json", "full_3p_seeded.json", "full_5p_seeded.json"}) {
    CAPTURE(name);
    const json record = read_record(name);
    CHECK_FALSE(record["setup"].contains("script"));
    REQUIRE(record["setup"]["seed"].is_string());
    const auto r = replay_json(record);
    REQUIRE(r.code == 0);
    CHECK(r.out["status"] == "finished");
    CHECK(r.out["tiles_left"] == 0);
    CHECK(r.out["board"].size() + r.out["discarded"].size() == 72);
    CHECK(r.out["turn"].get<std::size_t>() + r.out["discarded"].size() == 71);
    CHECK(r.out["awaiting"].is_null());
    CHECK_FALSE(r.out.contains("legal_moves"));
    // Cutting the last move leaves a game that is still running.
    json shorter = record;
    shorter["moves"].erase(shorter["moves"].end() - 1);
    CHECK(replay_json(shorter).out["status"] == "playing");
  }
}

TEST_CASE("a record file is read from disk as well as from standard input") {
  const auto path = (records_dir / "ex02b_city_completed_by_other.json").string();
  std::istringstream in;
  std::ostringstream out, err;
  const std::vector<std::string> args{path};
  CHECK(carcassonne::app::run_replay(args, in, out, err) == 0);
  CHECK(parse_output(out.str())["scores"] == json::array({4, 0}));

  const std::vector<std::string> missing{(records_dir / "no_such_record.json").string()};
  std::ostringstream out2;
  CHECK(carcassonne::app::run_replay(missing, in, out2, err) == 2);
  CHECK(parse_output(out2.str())["error"]["code"].is_string());
}

// ---- malformed records: exit 2 -------------------------------------------------------------

namespace {

void check_record_error(const command_result& r, const std::string& code) {
  CHECK(r.code == 2);
  REQUIRE(r.out.is_object());
  REQUIRE(r.out.contains("error"));
  const auto& e = r.out["error"];
  CHECK(e["code"] == code);
  CHECK(e["message"].is_string());
  CHECK_FALSE(e["message"].get<std::string>().empty());
  CHECK_FALSE(e.contains("move"));
}

json with_setup(const std::string& key, json value) {
  json r = base_record({"BA/RFr"});
  r["setup"][key] = std::move(value);
  return r;
}

json players(int n) {
  json p = json::array();
  for (int i = 0; i < n; ++i) p.push_back({{"name", std::string("P").append(std::to_string(i))}});
  return p;
}

}  // namespace

TEST_CASE("malformed records exit 2 with an error code and message") {
  SUBCASE("bad JSON") {
    check_record_error(replay_text("{\"format\": \"carcassonne-rec"), "bad_json");
  }
  SUBCASE("not an object") {
    check_record_error(replay_text("[1, 2]"), "bad_record");
  }
  SUBCASE("wrong format string") {
    json r = base_record({"BA/RFr"});
    r["format"] = "carcassonne-record/2";
    check_record_error(replay_json(r), "bad_record");
    r["format"] = 1;
    check_record_error(replay_json(r), "bad_record");
  }
  SUBCASE("no setup") {
    check_record_error(replay_text(R"({"format":"carcassonne-record/1"})"), "bad_record");
  }
  SUBCASE("moves not a list") {
    json r = base_record({"BA/RFr"});
    r["moves"] = json::object();
    check_record_error(replay_json(r), "bad_record");
  }
  SUBCASE("unknown tile id") {
    check_record_error(replay_json(base_record({"BA/RFr", "BA/Nope"})), "unknown_tile");
  }
  SUBCASE("unknown expansion") {
    check_record_error(replay_json(with_setup("expansions", {"dragons"})), "unknown_expansion");
  }
  SUBCASE("unknown option") {
    check_record_error(replay_json(with_setup("options", {{"base.farmers", "none"}})),
                       "unknown_option");
  }
  SUBCASE("bad option value") {
    check_record_error(replay_json(with_setup("options", {{"easter.variant", "both"}})),
                       "bad_option_value");
    check_record_error(replay_json(with_setup("options", {{"easter.shepherd_eggs", "yes"}})),
                       "bad_option_value");
    check_record_error(replay_json(with_setup("options", {{"easter.variant", 3}})),
                       "bad_option_value");
  }
  SUBCASE("1 player") {
    check_record_error(replay_json(with_setup("players", players(1))), "bad_seat_count");
  }
  SUBCASE("7 players") {
    check_record_error(replay_json(with_setup("players", players(7))), "bad_seat_count");
  }
  SUBCASE("players without names") {
    check_record_error(replay_json(with_setup("players", {1, 2})), "bad_record");
  }
  SUBCASE("script.deck with a tile of a set not in play") {
    check_record_error(replay_json(base_record({"BA/RFr", "HS/RR.h"})), "tile_not_in_play");
  }
  SUBCASE("unknown script key") {
    json r = base_record({"BA/RFr"});
    r["setup"]["script"]["dragons"] = json::array({"red"});
    check_record_error(replay_json(r), "bad_script");
  }
  SUBCASE("script entries of the wrong type") {
    json r = base_record({"BA/RFr"});
    r["setup"]["script"]["deck"] = json::array({1});
    check_record_error(replay_json(r), "bad_script");
    r["setup"]["script"]["deck"] = "BA/RFr";
    check_record_error(replay_json(r), "bad_script");
  }
}

TEST_CASE("a known option with a valid value is accepted") {
  const auto r = replay_json(with_setup("options", {{"easter.variant", "original"}}));
  CHECK(r.code == 0);
}

// ---- illegal and malformed moves: exit 3 ---------------------------------------------------

namespace {

// Replays `record` and expects move `index` to be refused with `code`; the moves before it are
// legal (the same record cut before that move replays with exit 0).
void check_move_error(json record, std::size_t index, const std::string& code) {
  CAPTURE(code);
  CAPTURE(index);
  const auto r = replay_json(record);
  CHECK(r.code == 3);
  REQUIRE(r.out.is_object());
  REQUIRE(r.out.contains("error"));
  const auto& e = r.out["error"];
  CHECK(e.size() == 3);
  CHECK(e["move"] == index);
  CHECK(e["code"] == code);
  REQUIRE(e["message"].is_string());
  CHECK_FALSE(e["message"].get<std::string>().empty());
  record["moves"].erase(record["moves"].begin() + static_cast<std::ptrdiff_t>(index),
                        record["moves"].end());
  CHECK(replay_json(record).code == 0);
}

const std::vector<std::string> deck{"BA/RFr", "BA/RFr", "BA/Rr", "BA/Rr"};
// Seat 0 extends the start road east and puts a thief on it; seat 1 extends the road further.
const json m0 = place(0, 1, 0, 0), m1 = deploy(0, 1, 0, "road0"), m2 = place(1, 2, 0, 0);

json moves_with(std::initializer_list<json> moves) {
  return json(moves);
}

}  // namespace

TEST_CASE("engine move errors reachable from a record exit 3 with the move's index") {
  SUBCASE("not_your_turn") {
    check_move_error(base_record(deck, moves_with({place(1, 1, 0, 0)})), 0, "not_your_turn");
    check_move_error(base_record(deck, moves_with({m0, m1, place(0, 2, 0, 0)})), 2,
                     "not_your_turn");
    check_move_error(base_record(deck, moves_with({m0, m1, place(2, 2, 0, 0)})), 2,
                     "not_your_turn");
  }
  SUBCASE("unexpected_move") {
    check_move_error(base_record(deck, moves_with({pass(0)})), 0, "unexpected_move");
    check_move_error(base_record(deck, moves_with({deploy(0, 0, 0, "road0")})), 0,
                     "unexpected_move");
    check_move_error(base_record(deck, moves_with({m0, place(0, -1, 0, 0)})), 1, "unexpected_move");
  }
  SUBCASE("bad_rotation") {
    check_move_error(base_record(deck, moves_with({place(0, 1, 0, 45)})), 0, "bad_rotation");
    check_move_error(base_record(deck, moves_with({m0, m1, place(1, 2, 0, 360)})), 2,
                     "bad_rotation");
    check_move_error(base_record(deck, moves_with({place(0, 1, 0, -90)})), 0, "bad_rotation");
  }
  SUBCASE("square_not_open") {
    check_move_error(base_record(deck, moves_with({place(0, 0, 0, 0)})), 0, "square_not_open");
    check_move_error(base_record(deck, moves_with({m0, m1, place(1, 1, 0, 0)})), 2,
                     "square_not_open");
    check_move_error(base_record(deck, moves_with({place(0, 5, 5, 0)})), 0, "square_not_open");
    check_move_error(base_record(deck, moves_with({place(0, 1, 1, 0)})), 0, "square_not_open");
  }
  SUBCASE("tile_does_not_fit") {
    // BA/RFr turned 90 has a road north: against the start tile's field (south side).
    check_move_error(base_record(deck, moves_with({place(0, 0, 1, 90)})), 0, "tile_does_not_fit");
    check_move_error(base_record(deck, moves_with({place(0, 0, -1, 0)})), 0, "tile_does_not_fit");
  }
  SUBCASE("wrong_tile") {
    check_move_error(base_record(deck, moves_with({m0, deploy(0, 0, 0, "road0")})), 1,
                     "wrong_tile");
  }
  SUBCASE("unknown_feature") {
    check_move_error(base_record(deck, moves_with({m0, deploy(0, 1, 0, "city0")})), 1,
                     "unknown_feature");
    check_move_error(base_record(deck, moves_with({m0, deploy(0, 7, 7, "road0")})), 1,
                     "unknown_feature");
  }
  SUBCASE("feature_occupied") {
    check_move_error(base_record(deck, moves_with({m0, m1, m2, deploy(1, 2, 0, "road0")})), 3,
                     "feature_occupied");
  }
  SUBCASE("game_over") {
    // A one-tile deck: the game ends after seat 0's turn.
    const json done = moves_with({m0, m1});
    REQUIRE(replay_json(base_record({"BA/RFr"}, done)).out["status"] == "finished");
    json more = done;
    more.push_back(place(1, 2, 0, 0));
    check_move_error(base_record({"BA/RFr"}, more), 2, "game_over");
    more[2] = pass(0);
    check_move_error(base_record({"BA/RFr"}, more), 2, "game_over");
  }
  SUBCASE("figure_not_allowed: a shepherd or protection in the base game") {
    json shepherd = deploy(0, 1, 0, "field0");
    shepherd["figure"] = "shepherd";
    check_move_error(base_record(deck, moves_with({m0, shepherd})), 1, "figure_not_allowed");
    json protect = m1;
    protect["protect"] = true;
    check_move_error(base_record(deck, moves_with({m0, protect})), 1, "figure_not_allowed");
  }
}

TEST_CASE("a pass where the engine skipped the figure step is refused") {
  // Seat 0 puts a knight on BA/Cc+@180 (city S+E, joined to the start city). Seat 1's BA/Cccc+
  // at (1,-1) has a single feature, that occupied city: the step is skipped, seat 0 draws next.
  const std::vector<std::string> cities{"BA/Cc+", "BA/Cccc+", "BA/RFr", "BA/RFr"};
  const json prefix =
      moves_with({place(0, 0, -1, 180), deploy(0, 0, -1, "city0"), place(1, 1, -1, 0)});
  const auto ok = replay_json(base_record(cities, prefix));
  REQUIRE(ok.code == 0);
  CHECK(ok.out["awaiting"] == json({{"seat", 0}, {"decision", "place_tile"}}));
  json after = prefix;
  after.push_back(pass(1));
  check_move_error(base_record(cities, after), 3, "not_your_turn");
  after[3] = pass(0);
  check_move_error(base_record(cities, after), 3, "unexpected_move");
}

TEST_CASE("malformed moves exit 3 with malformed_move") {
  auto one = [](json m) { return base_record(deck, moves_with({m0, m1, std::move(m)})); };
  SUBCASE("missing fields") {
    check_move_error(one({{"seat", 1}, {"type", "place_tile"}, {"x", 2}, {"rotation", 0}}), 2,
                     "malformed_move");
    check_move_error(one({{"seat", 1}, {"type", "place_tile"}, {"x", 2}, {"y", 0}}), 2,
                     "malformed_move");
    check_move_error(one({{"type", "place_tile"}, {"x", 2}, {"y", 0}, {"rotation", 0}}), 2,
                     "malformed_move");
    check_move_error(one({{"seat", 1}, {"x", 2}, {"y", 0}, {"rotation", 0}}), 2, "malformed_move");
    check_move_error(
        base_record(deck, moves_with({m0, {{"seat", 0}, {"type", "deploy"}, {"x", 1}, {"y", 0}}})),
        1, "malformed_move");
  }
  SUBCASE("wrong types") {
    check_move_error(
        one({{"seat", 1}, {"type", "place_tile"}, {"x", "2"}, {"y", 0}, {"rotation", 0}}), 2,
        "malformed_move");
    check_move_error(
        one({{"seat", "1"}, {"type", "place_tile"}, {"x", 2}, {"y", 0}, {"rotation", 0}}), 2,
        "malformed_move");
    check_move_error(
        one({{"seat", 1}, {"type", "place_tile"}, {"x", 2}, {"y", 0}, {"rotation", 90.5}}), 2,
        "malformed_move");
    check_move_error(one({{"seat", 1}, {"type", 3}, {"x", 2}, {"y", 0}, {"rotation", 0}}), 2,
                     "malformed_move");
    json feature = deploy(0, 1, 0, "road0");
    feature["feature"] = 0;
    check_move_error(base_record(deck, moves_with({m0, feature})), 1, "malformed_move");
    json figure = m1;
    figure["protect"] = "yes";
    check_move_error(base_record(deck, moves_with({m0, figure})), 1, "malformed_move");
  }
  SUBCASE("unknown type, unknown figure, not an object, seat out of range") {
    check_move_error(one({{"seat", 1}, {"type", "fly"}}), 2, "malformed_move");
    json dragon = m1;
    dragon["figure"] = "dragon";
    check_move_error(base_record(deck, moves_with({m0, dragon})), 1, "malformed_move");
    check_move_error(one(json::array({1, 2})), 2, "malformed_move");
    check_move_error(one("pass"), 2, "malformed_move");
    check_move_error(one({{"seat", 9}, {"type", "pass"}}), 2, "malformed_move");
    check_move_error(one({{"seat", -1}, {"type", "pass"}}), 2, "malformed_move");
  }
}

TEST_CASE("replay argument errors exit 1") {
  std::istringstream in;
  std::ostringstream out, err;
  const auto run = [&](std::vector<std::string> args) {
    return carcassonne::app::run_replay(args, in, out, err);
  };
  CHECK(run({}) == 1);
  CHECK(run({"a.json", "b.json"}) == 1);
  const auto path = (records_dir / "ex01_road_tie.json").string();
  CHECK(run({path, "--as", "north"}) == 1);
  CHECK(run({path, "--as", "2"}) == 1);
  CHECK(run({path, "--as", "-1"}) == 1);
  CHECK(run({path, "--as", "1x"}) == 1);
  CHECK(run({path, "--as", ""}) == 1);
  CHECK(run({path, "--as", "99999999999"}) == 1);
  CHECK(run({path, "--as"}) == 1);
  CHECK(run({path, "--as", "0"}) == 0);
}

// ---- Hills & Sheep ------------------------------------------------------------------------------

TEST_CASE("EX-07: the tile under a hill is in no view and no event, for any viewer") {
  const auto text = read_text(records_dir / "ex07_tile_under_hill.json");
  const auto r = replay_text(text, {"--events"});
  REQUIRE(r.code == 0);
  int hidden = 0;
  for (const auto& e : r.out["events"]) hidden += e["type"] == "tile_hidden";
  CHECK(hidden == 1);
  CHECK(r.text.find("\"BA/L\"") == std::string::npos);
  for (const char* viewer : {"0", "1", "spectator"}) {
    const auto v = replay_text(text, {"--as", viewer});
    REQUIRE(v.code == 0);
    CHECK(v.text.find("\"BA/L\"") == std::string::npos);
  }
  // Without the hill taking it, BA/L would be the second turn's tile.
  json r2 = json::parse(text);
  r2["setup"]["options"] = {{"hills.under_tile", "none"}};
  r2["moves"] = json::array({r2["moves"][0], r2["moves"][1]});
  const auto v = replay_json(r2);
  REQUIRE(v.code == 0);
  CHECK(v.out["tile"] == "BA/L");
}

TEST_CASE("a seeded Hills & Sheep game: hills take tiles, flocks and the bag add up") {
  const json record = read_record("full_3p_hills_and_sheep_seeded.json");
  REQUIRE(record["setup"]["seed"].is_string());
  const auto r = replay_json(record, {"--events"});
  REQUIRE(r.code == 0);
  CHECK(r.out["status"] == "finished");
  int hidden = 0, drawn = 0, flock_moves = 0;
  for (const auto& e : r.out["events"]) {
    hidden += e["type"] == "tile_hidden";
    drawn += e["type"] == "token_drawn";
  }
  for (const auto& m : record["moves"]) flock_moves += m["type"] == "flock";
  // 72 base + 18 Hills & Sheep tiles: each one placed, discarded or under a hill.
  CHECK(r.out["board"].size() + r.out["discarded"].size() + hidden == 90);
  CHECK(hidden > 0);
  CHECK(flock_moves > 0);
  CHECK(drawn >= flock_moves / 2);
  int in_flocks = 0;
  for (const auto& f : r.out["flocks"]) in_flocks += static_cast<int>(f["tokens"].size());
  CHECK(r.out["bag"].get<int>() + in_flocks == 18);
}

TEST_CASE("scripted sheep draws that cannot be made make the record malformed (exit 2)") {
  json r = json::parse(read_text(records_dir / "ex06_shepherd.json"));
  SUBCASE("exhausted") {
    r["setup"]["script"]["sheep"] = {"sheep3"};
    check_record_error(replay_json(r), "script_exhausted");
  }
  SUBCASE("not in the bag") {
    // Both sheep4 tokens are in Red's flock when the last move (Grow instead of Gather) draws.
    r["setup"]["script"]["sheep"] = {"sheep4", "sheep4", "sheep4"};
    r["moves"].back() = {{"seat", 0}, {"type", "flock"}, {"choice", "expand"}};
    check_record_error(replay_json(r), "bad_script");
    r["setup"]["script"]["sheep"] = {"sheep4", "sheep4", "wolf"};
    const auto ok = replay_json(r);
    REQUIRE(ok.code == 0);
    CHECK(ok.out["scores"] == json::array({0, 0}));  // the wolf took the flock of 8
    CHECK(ok.out["bag"] == 18);
  }
  SUBCASE("unknown token") {
    r["setup"]["script"]["sheep"] = {"goat"};
    check_record_error(replay_json(r), "bad_script");
  }
}

// ---- The Peasant Revolts ------------------------------------------------------------------------

TEST_CASE("a seeded Peasant Revolts game: the 3 tiles set aside are in no view and no event") {
  for (const char* name : {"full_2p_revolts_seeded.json", "full_5p_three_expansions_seeded.json"}) {
    CAPTURE(name);
    const auto text = read_text(records_dir / name);
    const auto r = replay_text(text, {"--events"});
    REQUIRE(r.code == 0);
    CHECK(r.out["status"] == "finished");
    CHECK(r.out["set_aside"] == 3);
    std::set<std::string> seen;
    for (const auto& t : r.out["board"]) seen.insert(t["tile"].get<std::string>());
    for (const auto& t : r.out["discarded"]) seen.insert(t.get<std::string>());
    std::vector<std::string> absent;
    for (int i = 1; i <= 12; ++i) {
      const std::string id = (i < 10 ? "PR/0" : "PR/") + std::to_string(i);
      if (!seen.count(id)) absent.push_back(id);
    }
    int revolts = 0;
    for (const auto& e : r.out["events"]) revolts += e["type"] == "revolt";
    CHECK(revolts >= 1);
    // With hills some revolt tiles may be under a hill too: never fewer than 3 unseen.
    CHECK(absent.size() >= 3);
    for (const auto& id : absent) {
      CAPTURE(id);
      CHECK(r.text.find(json(id).dump()) == std::string::npos);
      for (const char* viewer : {"0", "1", "spectator"})
        CHECK(replay_text(text, {"--as", viewer}).text.find(json(id).dump()) == std::string::npos);
    }
  }
}

TEST_CASE("script.revolt_removed must name three distinct revolt tiles") {
  json r = json::parse(read_text(records_dir / "ex13_revolt.json"));
  r["setup"]["script"]["revolt_removed"] = {"PR/01", "PR/02", "PR/03"};
  CHECK(replay_json(r).code == 0);
  r["setup"]["script"]["revolt_removed"] = {"PR/01", "PR/02"};
  check_record_error(replay_json(r), "bad_script");
  r["setup"]["script"]["revolt_removed"] = {"PR/01", "PR/02", "BA/L"};
  check_record_error(replay_json(r), "bad_script");
}

// ---- The Gifts
// -------------------------------------------------------------------------------------

TEST_CASE("gift hands: each seat sees its own cards, others and spectators only counts") {
  for (const char* name : {"ex08_gift_receipt.json", "full_3p_gifts_seeded.json",
                           "full_4p_four_expansions_seeded.json"}) {
    CAPTURE(name);
    const auto text = read_text(records_dir / name);
    const int seats = static_cast<int>(json::parse(text)["setup"]["players"].size());
    const auto spectator = replay_text(text, {"--as", "spectator"});
    REQUIRE(spectator.code == 0);
    CHECK_FALSE(spectator.out.contains("hand"));
    CHECK(spectator.out["gift_deck"].is_number_integer());
    int total = 0;
    for (int seat = 0; seat < seats; ++seat) {
      const auto v = replay_text(text, {"--as", std::to_string(seat)});
      REQUIRE(v.code == 0);
      REQUIRE(v.out["hand"].is_array());
      CHECK(v.out["hand"].size() == v.out["hand_sizes"][seat]);
      total += static_cast<int>(v.out["hand"].size());
    }
    CHECK(total + spectator.out["gift_deck"].get<int>() +
              static_cast<int>(spectator.out["gift_discard"].size()) ==
          25);
  }
  // EX-08: seat 0 holds the scripted synod; nobody else's view names it.
  const auto text = read_text(records_dir / "ex08_gift_receipt.json");
  CHECK(replay_text(text, {"--as", "0"}).out["hand"] == json::array({"synod"}));
  for (const char* viewer : {"1", "2", "spectator"})
    CHECK(replay_text(text, {"--as", viewer}).text.find("synod") == std::string::npos);
  // The receipt event names no card.
  const auto with_events = replay_text(text, {"--events"});  // kept alive for the loop
  for (const auto& e : with_events.out["events"])
    if (e["type"] == "gift_received") CHECK_FALSE(e.contains("card"));
}

TEST_CASE("scripted gift draws that cannot be made make the record malformed") {
  json r = json::parse(read_text(records_dir / "ex08_gift_receipt.json"));
  r["setup"]["script"]["gifts"] = json::array();
  check_record_error(replay_json(r), "script_exhausted");
  r["setup"]["script"]["gifts"] = {"joker"};
  check_record_error(replay_json(r), "bad_script");
}

// ---- Easter -------------------------------------------------------------------------------------

namespace {

json without_last_moves(json record, std::size_t n) {
  record["moves"].erase(record["moves"].end() - static_cast<std::ptrdiff_t>(n),
                        record["moves"].end());
  return record;
}

}  // namespace

TEST_CASE("EX-15: during Blue's go Blue decides, not the active seat; each view shows the go") {
  const json record = read_record("ex15_easter_bunny_hig.json");
  const json cut = without_last_moves(record, 1);  // after Red's hops, Blue's go
  const auto r = replay_json(cut);
  REQUIRE(r.code == 0);
  CHECK(r.out["active"] == 0);
  CHECK(r.out["awaiting"] == json({{"seat", 1}, {"decision", "bunny"}}));
  CHECK(r.out["bunny_go"] ==
        json({{"seat", 1}, {"roll", 1}, {"visited", {{3, 0}, {2, 0}, {1, 0}}}}));
  CHECK(r.out["bunny"] == json({{"x", 1}, {"y", 0}}));
  CHECK(r.out["eggs"] == json::array({1, 1, 0}));
  CHECK(r.out["legal_moves"] ==
        json::array({{{"seat", 1}, {"type", "bunny"}, {"path", {{1, 1}}}},
                     {{"seat", 1}, {"type", "bunny"}, {"path", {{0, 0}}}}}));
  CHECK(replay_json(cut, {"--as", "1"}).out.contains("legal_moves"));
  CHECK_FALSE(replay_json(cut, {"--as", "0"}).out.contains("legal_moves"));
  CHECK_FALSE(replay_json(cut, {"--as", "spectator"}).out.contains("legal_moves"));
}

TEST_CASE("EX-15: bunny paths across a gap, onto a visited square or by the wrong seat exit 3") {
  const json record = read_record("ex15_easter_bunny_hig.json");
  const std::size_t red = record["moves"].size() - 2, blue = red + 1;
  auto with_move = [&](std::size_t index, json m) {
    json r = record;
    r["moves"][index] = std::move(m);
    return r;
  };
  const auto path = [](std::initializer_list<std::pair<int, int>> squares) {
    json p = json::array();
    for (const auto& [x, y] : squares) p.push_back({x, y});
    return p;
  };
  const auto hop = [&](int seat, json p) {
    return json{{"seat", seat}, {"type", "bunny"}, {"path", p}};
  };
  check_move_error(with_move(red, hop(0, path({{3, 1}}))), red, "unexpected_move");  // gap
  check_move_error(with_move(red, hop(0, path({{2, 0}}))), red, "unexpected_move");  // short
  check_move_error(with_move(red, hop(0, path({{2, 0}, {2, 1}}))), red, "unexpected_move");  // gap
  check_move_error(with_move(blue, hop(1, path({{2, 0}}))), blue, "unexpected_move");  // visited
  check_move_error(with_move(blue, hop(0, path({{1, 1}}))), blue, "not_your_turn");
  check_move_error(with_move(red, hop(1, path({{2, 0}, {1, 0}}))), red, "not_your_turn");
  check_move_error(with_move(blue, json{{"seat", 1}, {"type", "pass"}}), blue, "unexpected_move");
  // Green's go was skipped: a move from Green is not in the record and would be refused.
  json green = record;
  green["moves"].push_back(hop(2, path({{0, 1}})));
  check_move_error(green, record["moves"].size(), "not_your_turn");
}

TEST_CASE(
    "scripted dice that run out make the record malformed (exit 2), wherever the roll is made") {
  json r = read_record("ex15_easter_bunny_hig.json");
  SUBCASE("the first go, rolled in the apply of Red's pass") {
    r["setup"]["script"]["dice"] = json::array();
    check_record_error(replay_json(r), "script_exhausted");
    CHECK(replay_json(without_last_moves(r, 3)).code == 0);  // cut before the pass
  }
  SUBCASE("Green's stuck go, rolled in the apply of Blue's move") {
    r["setup"]["script"]["dice"] = {2, 1};
    check_record_error(replay_json(r), "script_exhausted");
    CHECK(replay_json(without_last_moves(r, 1)).code == 0);
  }
  SUBCASE("entries other than 1, 2, 3") {
    r["setup"]["script"]["dice"] = {2, 4, 1};
    check_record_error(replay_json(r), "bad_script");
    r["setup"]["script"]["dice"] = {"two"};
    check_record_error(replay_json(r), "bad_script");
  }
}

TEST_CASE("the variants record: HiG and the original variant give the documented results") {
  json r = read_record("easter_variants_hig.json");
  const auto hig = replay_json(r);
  REQUIRE(hig.code == 0);
  CHECK(hig.out["eggs"] == json::array({0, 1}));
  CHECK(hig.out["scores"] == json::array({4, 10}));
  r["setup"]["options"] = {{"easter.variant", "original"}};
  const auto original = replay_json(r, {"--events"});
  REQUIRE(original.code == 0);
  CHECK(original.out["eggs"] == json::array({1, 1}));
  CHECK(original.out["scores"] == json::array({14, 10}));
  // The phase (10a) comes before the road's scoring (11) in the original variant.
  std::vector<std::string> order;
  for (const auto& e : original.out["events"])
    if (e["type"] == "bunny_moved" || e["type"] == "feature_completed") order.push_back(e["type"]);
  CHECK(order ==
        std::vector<std::string>{"bunny_moved", "bunny_moved", "bunny_moved", "feature_completed"});
}

TEST_CASE("EX-16: egg points at the end under both second_place rules") {
  json r = read_record("ex16_easter_egg_points.json");
  const auto egg_points = [](const json& out) {
    std::vector<int> points(4, 0);
    for (const auto& e : out["events"])
      if (e["type"] == "points" && e.value("reason", "") == "eggs") {
        CHECK(e["final"] == true);
        CHECK_FALSE(e.contains("feature"));
        points[e["seat"].get<std::size_t>()] += e["points"].get<int>();
      }
    return points;
  };
  const auto dense = replay_json(r, {"--events"});
  REQUIRE(dense.code == 0);
  CHECK(dense.out["eggs"] == json::array({6, 6, 2, 0}));
  CHECK(egg_points(dense.out) == std::vector<int>{10, 10, 5, 0});
  r["setup"]["options"] = {{"easter.second_place", "competition"}};
  const auto competition = replay_json(r, {"--events"});
  REQUIRE(competition.code == 0);
  CHECK(egg_points(competition.out) == std::vector<int>{10, 10, 0, 0});
  CHECK(competition.out["scores"] == json::array({14, 20, 18, 0}));
}

TEST_CASE("a seeded Easter game: one phase per bunny tile, a roll per go, eggs add up") {
  const json record = read_record("full_4p_easter_hills_festival_seeded.json");
  REQUIRE(record["setup"]["seed"].is_string());
  const auto r = replay_json(record, {"--events"});
  REQUIRE(r.code == 0);
  CHECK(r.out["status"] == "finished");
  int hidden = 0, placed = 0, rolls = 0, stuck = 0, hops = 0, bunny_moves = 0;
  std::vector<int> eggs(4, 0);
  for (const auto& e : r.out["events"]) {
    hidden += e["type"] == "tile_hidden";
    placed += e["type"] == "bunny_placed";
    stuck += e["type"] == "bunny_stuck";
    hops += e["type"] == "bunny_moved";
    if (e["type"] == "die_rolled") {
      ++rolls;
      CHECK(e["roll"].get<int>() >= 1);
      CHECK(e["roll"].get<int>() <= 3);
    }
    if (e["type"] == "eggs_collected") eggs[e["seat"].get<std::size_t>()] += e["eggs"].get<int>();
  }
  for (const auto& m : record["moves"]) bunny_moves += m["type"] == "bunny";
  // 72 base + 18 Hills & Sheep + 10 Festival + 22 Easter tiles.
  CHECK(r.out["board"].size() + r.out["discarded"].size() + hidden == 122);
  CHECK(placed > 5);
  CHECK(rolls == 4 * placed);           // HiG: every bunny tile moves the bunny, four goes each
  CHECK(rolls == bunny_moves + stuck);  // every go is a move or a skip
  CHECK(hops >= bunny_moves);
  CHECK(r.out["eggs"] == json(eggs));
}

TEST_CASE(
    "seeded dice (docs/randomness.md test vector): seed dice-8 rolls 2, 1, 3 as EX-15's script") {
  json r = read_record("ex15_easter_bunny_hig.json");
  r["setup"]["script"].erase("dice");
  r["setup"]["seed"] = "dice-8";
  const auto seeded = replay_json(r, {"--events"});
  REQUIRE(seeded.code == 0);
  std::vector<int> rolls;
  for (const auto& e : seeded.out["events"])
    if (e["type"] == "die_rolled") rolls.push_back(e["roll"].get<int>());
  CHECK(rolls == std::vector<int>{2, 1, 3});
  CHECK(seeded.out["eggs"] == json::array({1, 1, 1}));
  // With the die-less variant the roll is always 2 and nothing is drawn: Blue's single hop is
  // then refused (a second hop exists), so the record is cut before it.
  r["setup"]["options"] = {{"easter.hops", "fixed_2"}};
  const auto fixed = replay_json(without_last_moves(r, 1), {"--events"});
  REQUIRE(fixed.code == 0);
  CHECK(fixed.out["bunny_go"]["roll"] == 2);
  for (const auto& e : fixed.out["events"]) CHECK(e["type"] != "die_rolled");
}

TEST_CASE("Take 2: while the choice is pending the view shows both tiles, the first in 'tile'") {
  json r = read_record("full_3p_all_expansions_seeded.json");
  r["moves"].erase(r["moves"].begin() + 75, r["moves"].end());  // just after the take_two
  REQUIRE(r["moves"].back()["card"] == "take_two");
  for (const char* viewer : {"0", "2", "spectator"}) {
    const auto v = replay_json(r, {"--as", viewer});
    REQUIRE(v.code == 0);
    CHECK(v.out["awaiting"]["decision"] == "choose_tile");
    CHECK(v.out["tile"] == "BA/CRRR");
    CHECK(v.out["extra_tile"] == "BA/CcRr");
  }
}
