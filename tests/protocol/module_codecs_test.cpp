// Every module's move codec (protocol/src/expansions/<name>/): each move type of every module,
// as generated in seeded games with all expansions, survives move_to_json and move_from_json.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "protocol_support.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;
using carcassonne::testing::all_expansions_game;

TEST_CASE("every move type of every module round-trips through the codec") {
  std::set<std::string> seen;
  std::size_t checked = 0;
  for (const char* seed : {"modules-1", "modules-2", "modules-3", "modules-4"}) {
    game_state s = all_expansions_game(seed);
    for (int step = 0; !s.finished; ++step) {
      const auto moves = legal_actions(s);
      REQUIRE_FALSE(moves.empty());
      for (const auto& m : moves) {
        const json j = move_to_json(m, s);
        seen.insert(j["type"].get<std::string>());
        const auto back = move_from_json(j, s);
        REQUIRE_MESSAGE(back.ok(), j.dump() << ": " << back.error.code);
        CHECK(*back.value == m);
        CHECK(move_to_json(*back.value, s) == j);
        ++checked;
      }
      // Prefer a module's move when there is one, so that every kind comes up.
      std::size_t pick = static_cast<std::size_t>(step) % moves.size();
      for (std::size_t i = 0; i < moves.size(); ++i)
        if (static_cast<int>(moves[i].type) > static_cast<int>(move_type::pass) && step % 2 == 0)
          pick = i;
      REQUIRE(apply_in_place(s, moves[pick]).ok());
    }
  }
  for (const auto* m : all_modules()) {
    if (!m || m->test_only) continue;
    for (const auto name : m->vocabulary.moves)
      CHECK_MESSAGE(seen.count(std::string(name)) == 1, m->name << ": " << name << " never seen");
  }
  for (const auto name : base_move_type_names) CHECK(seen.count(std::string(name)) == 1);
  CHECK(checked > 1000);
}

TEST_CASE("the module vocabulary: every name finds its value and back") {
  for (const auto* m : all_modules()) {
    if (!m) continue;
    for (const auto name : m->vocabulary.moves) {
      const auto t = find_move_type(name);
      REQUIRE(t);
      CHECK(move_type_name(*t) == name);
      CHECK(move_owner(*t) == m);
    }
    for (const auto name : m->vocabulary.figures) {
      const auto f = find_figure_type(name);
      REQUIRE(f);
      CHECK(figure_type_name(*f) == name);
    }
  }
  CHECK(move_owner(move_type::deploy) == nullptr);
  CHECK(move_type_name(static_cast<move_type>(250)) == "unknown");
  CHECK_FALSE(find_move_type("no_such_move"));
  CHECK(event_is_quiet(event_type::tile_placed));
  CHECK_FALSE(event_is_quiet(event_type::points));
}
