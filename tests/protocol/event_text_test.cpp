// Events are written as text, without a JSON tree (a patch carries them on every move). The text
// must be what the tree's dump always gave clients: keys in order, the same values.
#include <doctest/doctest.h>

#include <set>

#include "carcassonne/engine/rng.hpp"
#include "carcassonne/protocol/json_codec.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;
using nlohmann::json;

TEST_CASE("a completed city's event, written as text: keys in order, exact values") {
  event e;
  e.type = event_type::feature_completed;
  e.seat = 1;
  e.at = {2, -1};
  e.tile = 0;
  e.feature = 0;
  e.kind = tiles()[0].segments[0].kind;
  e.points = 8;
  e.owners = 0b101;
  std::string text;
  append_events_text(text, {e});
  const std::string feature = tiles()[0].segments[0].id;
  const std::string kind(feature_kind_names[static_cast<int>(e.kind)]);
  CHECK(text ==
        R"([{"feature":")" + feature + R"(","kind":")" + kind +
            R"(","owners":[0,2],"points":8,"seat":1,"type":"feature_completed","x":2,"y":-1}])");
  CHECK(event_to_json(e) == json::parse(text)[0]);
  text.clear();
  append_events_text(text, {});
  CHECK(text == "[]");
}

TEST_CASE("every event of whole games, each expansion and all of them: the text is the dump") {
  std::vector<expansion_set> mixes(1);  // the base game alone first
  expansion_set all;
  for (int x = 0; x < expansion_count; ++x) {
    expansion_set one;
    one.add(static_cast<expansion>(x));
    mixes.push_back(one);
    all.add(static_cast<expansion>(x));
  }
  mixes.push_back(all);
  std::size_t seen = 0;
  std::set<std::string> types;
  for (std::size_t g = 0; g < mixes.size() * 2; ++g) {
    game_setup setup;
    setup.seats = 2 + static_cast<int>(g % 3);
    setup.seed = "events-" + std::to_string(g);
    setup.expansions = mixes[g / 2];
    auto made = new_game(setup);
    REQUIRE(made.ok());
    game_state s = std::move(made.value());
    rng chooser(g + 1);
    while (!s.finished) {
      const auto moves = legal_actions(s);
      REQUIRE(!moves.empty());
      event_log events;
      REQUIRE(apply_in_place(s, moves[chooser.below(moves.size())], &events).ok());
      std::string text;
      append_events_text(text, events);
      const json parsed = json::parse(text);
      REQUIRE(parsed.dump() == text);  // nlohmann's own key order and spelling, byte for byte
      REQUIRE(parsed.size() == events.size());
      for (const auto& e : parsed) types.insert(e["type"].get<std::string>());
      seen += events.size();
    }
  }
  CHECK(seen > 1000);
  // The base's and the modules' events all went through the writer.
  for (const char* t :
       {"tile_placed", "figure_deployed", "feature_completed", "points", "game_finished"})
    CHECK(types.count(t) == 1);
  CHECK(types.size() >= 12);
}
