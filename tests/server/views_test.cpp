// replay --as N / --as spectator (game-record.md, "The replay command"; rules README "Randomness
// and hidden information"): every view holds the public state, and nothing of the supply order.
#include <doctest/doctest.h>

#include <functional>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"
#include "replay_support.hpp"

using namespace carcassonne;
using namespace carcassonne::testing;

namespace {

constexpr int base_supply = 71;  // 72 base tiles less the start tile

// The state after the first `cut` moves of `record`, built in-process.
game_state state_after(const json& record, std::size_t cut) {
  auto parsed = protocol::parse_record(record.dump());
  REQUIRE(parsed.ok());
  auto g = new_game(parsed.value->setup);
  REQUIRE(g.ok());
  game_state s = g.value();
  for (std::size_t i = 0; i < cut; ++i) {
    auto m = protocol::move_from_json(record["moves"][i], s);
    REQUIRE(m.ok());
    REQUIRE(apply_in_place(s, *m.value).ok());
  }
  return s;
}

void walk(const json& j, const std::function<void(const std::string& key, const json&)>& f,
          const std::string& key = "") {
  f(key, j);
  if (j.is_object())
    for (const auto& [k, v] : j.items()) walk(v, f, k);
  else if (j.is_array())
    for (const auto& v : j) walk(v, f, key);
}

bool contains_run(const std::vector<std::string>& list, const std::vector<std::string>& run) {
  if (run.empty() || list.size() < run.size()) return false;
  return std::search(list.begin(), list.end(), run.begin(), run.end()) != list.end();
}

// The checks every view must pass against the engine state it was printed from.
void check_view(const json& v, const game_state& s, int viewer) {
  for (const char* key :
       {"status", "scores", "awaiting", "board", "figures", "players", "tiles_left"}) {
    CAPTURE(key);
    CHECK(v.contains(key));
  }
  REQUIRE(v["players"].size() == s.seats);
  for (int seat = 0; seat < s.seats; ++seat) {
    CHECK(v["players"][seat]["supply"]["meeple"] == s.players[seat].followers);
    CHECK(v["scores"][seat] == s.players[seat].score);
  }
  CHECK(v["board"].size() == s.board.placed().size());
  CHECK(v["figures"].size() == s.figures.size());
  CHECK(v["status"] == (s.finished ? "finished" : "playing"));

  // The supply: a count, right both from the engine and from what is public.
  std::vector<std::string> remaining;
  for (std::size_t i = s.next_draw; i < s.supply.size(); ++i)
    remaining.push_back(tiles()[s.supply[i]].id);
  const bool shown = s.awaiting == decision::place_tile;
  CHECK(v["tiles_left"] == remaining.size());
  if (s.supply.size() == static_cast<std::size_t>(base_supply))
    CHECK(v["tiles_left"] == base_supply - (static_cast<int>(v["board"].size()) - 1) -
                                 static_cast<int>(v["discarded"].size()) - (shown ? 1 : 0));
  CHECK(v["tile"] == (shown ? json(tiles()[s.drawn].id) : json(nullptr)));

  // No list named supply or deck; tile ids appear only for the board, the discards and the drawn
  // tile; no list of strings holds the next tiles in their order.
  std::size_t tile_ids = 0;
  const auto next = std::vector<std::string>(
      remaining.begin(), remaining.begin() + std::min<std::size_t>(3, remaining.size()));
  walk(v, [&](const std::string& key, const json& j) {
    if ((key == "supply" || key == "deck" || key == "stack" || key == "draw_pile") &&
        !j.is_object()) {
      CAPTURE(key);
      CHECK_MESSAGE(!j.is_array(), "the view lists a " << key);
    }
    if (j.is_string() && tiles().find(j.get<std::string>())) ++tile_ids;
    if (j.is_array()) {
      std::vector<std::string> strings;
      for (const auto& e : j)
        if (e.is_string()) strings.push_back(e.get<std::string>());
      CHECK_FALSE(contains_run(strings, next.size() >= 2 ? next : std::vector<std::string>{}));
    }
  });
  CHECK(tile_ids == s.board.placed().size() + s.discarded.size() + (shown ? 1 : 0));

  // Legal moves only for the seat to act.
  const bool acts = viewer != protocol::spectator && to_act(s) == viewer;
  CHECK(v.contains("legal_moves") == acts);
}

void check_all_views(const json& record, std::size_t cut) {
  CAPTURE(cut);
  json part = record;
  part.erase("expect");
  part["moves"] = json(std::vector<json>(
      record["moves"].begin(), record["moves"].begin() + static_cast<std::ptrdiff_t>(cut)));
  const game_state s = state_after(record, cut);
  for (int viewer = protocol::spectator; viewer < s.seats; ++viewer) {
    CAPTURE(viewer);
    const auto r = replay_json(part, {"--as", viewer < 0 ? "spectator" : std::to_string(viewer)});
    REQUIRE(r.code == 0);
    CHECK(r.out["viewer"] == (viewer < 0 ? json("spectator") : json(viewer)));
    check_view(r.out, s, viewer);
  }
}

}  // namespace

TEST_CASE("seat and spectator views of a seeded game hide the supply order") {
  const json record = read_record("full_2p_seeded.json");
  const std::size_t n = record["moves"].size();
  for (std::size_t cut :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{17}, n / 2, n - 1, n})
    check_all_views(record, cut);
}

TEST_CASE("views of a 5-player seeded game hide the supply order") {
  const json record = read_record("full_5p_seeded.json");
  const std::size_t n = record["moves"].size();
  for (std::size_t cut : {std::size_t{3}, n / 3, n - 2}) check_all_views(record, cut);
}

TEST_CASE("views of a scripted game hide the rest of the scripted deck") {
  const json record = read_record("ex01_road_tie.json");
  for (std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{14}})
    check_all_views(record, cut);
  const json discards = read_record("discard_unplaceable.json");
  for (std::size_t cut = 0; cut <= discards["moves"].size(); ++cut) check_all_views(discards, cut);
}

TEST_CASE("the legal moves of the replay's full view are those of the seat to act") {
  const json record = read_record("ex01_road_tie.json");
  json part = record;
  part["moves"].erase(part["moves"].begin() + 4, part["moves"].end());
  const auto full = replay_json(part);
  const auto seat0 = replay_json(part, {"--as", "0"});
  REQUIRE(full.code == 0);
  CHECK(full.out["viewer"] == "replay");
  CHECK(full.out["awaiting"] == json({{"seat", 0}, {"decision", "place_tile"}}));
  CHECK(full.out["tile"] == "BA/RFr");
  REQUIRE(full.out["legal_moves"].is_array());
  CHECK(full.out["legal_moves"] == seat0.out["legal_moves"]);
  CHECK(full.out["legal_moves"].size() > 0);
  for (const auto& m : full.out["legal_moves"]) CHECK(m["type"] == "place_tile");
}

TEST_CASE("figures and board of the EX-03 end position") {
  const auto r = replay_json(read_record("ex03_final_scoring.json"), {"--as", "spectator"});
  REQUIRE(r.code == 0);
  const json figures = json::array(
      {{{"seat", 0}, {"figure", "meeple"}, {"x", 0}, {"y", -1}, {"feature", "field0"}},
       {{"seat", 1}, {"figure", "meeple"}, {"x", 1}, {"y", -1}, {"feature", "city0"}},
       {{"seat", 2}, {"figure", "meeple"}, {"x", 0}, {"y", 1}, {"feature", "monastery0"}},
       {{"seat", 0}, {"figure", "meeple"}, {"x", 1}, {"y", 0}, {"feature", "road0"}}});
  auto sorted = [](json list) {
    std::sort(list.begin(), list.end(),
              [](const json& a, const json& b) { return a.dump() < b.dump(); });
    return list;
  };
  CHECK(sorted(r.out["figures"]) == sorted(figures));
  const json board = json::array({{{"x", 0}, {"y", 0}, {"tile", "BA/RCr"}, {"rotation", 0}},
                                  {{"x", 0}, {"y", -1}, {"tile", "BA/C"}, {"rotation", 180}},
                                  {{"x", 1}, {"y", -1}, {"tile", "BA/Cc+"}, {"rotation", 90}},
                                  {{"x", 0}, {"y", 1}, {"tile", "BA/L"}, {"rotation", 0}},
                                  {{"x", 1}, {"y", 0}, {"tile", "BA/RFr"}, {"rotation", 0}}});
  CHECK(r.out["board"] == board);
  CHECK(r.out["awaiting"].is_null());
  CHECK(r.out["tile"].is_null());
}
