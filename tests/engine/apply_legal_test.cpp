// apply_legal_in_place, the playouts' path that does not check a listed move again, must do
// exactly what apply_in_place does with it: the same state and the same events, every move of
// random games over every expansion mix. (That it still runs the modules' prechecks: the
// scripted dice in easter_test.cpp.)
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "random_play.hpp"

using namespace carcassonne;

namespace {

bool same_events(const event_log& a, const event_log& b) {
  const auto fields = [](const event& e) {
    return std::tuple(e.type, e.seat, e.tile, e.at.x, e.at.y, e.rotation, e.feature, e.kind,
                      e.figure, e.final, e.owners, e.points, e.value);
  };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&](const event& x, const event& y) { return fields(x) == fields(y); });
}

int play_both_ways(expansion_set expansions, int seats, const std::string& seed) {
  game_state trusted = test::seeded_game(expansions, seats, seed);
  game_state checked = trusted;
  rng chooser = rng::from_string(seed + "/moves");
  std::vector<move> scratch;
  event_log trusted_events, checked_events;
  int moves = 0;
  while (!trusted.finished) {
    const move m = random_legal_action(trusted, chooser, scratch);
    trusted_events.clear();
    checked_events.clear();
    REQUIRE(apply_legal_in_place(trusted, m, &trusted_events).ok());
    REQUIRE(apply_in_place(checked, m, &checked_events).ok());
    REQUIRE(trusted == checked);
    REQUIRE(same_events(trusted_events, checked_events));
    ++moves;
  }
  return moves;
}

}  // namespace

TEST_CASE("a listed move applied unchecked gives the state and events of the checked apply") {
  const char* const five[] = {"hills_and_sheep", "gifts", "peasant_revolts", "easter", "festival"};
  for (unsigned mix = 0; mix < 32; ++mix) {
    expansion_set expansions;
    for (int e = 0; e < 5; ++e)
      if (mix >> e & 1) {
        const auto found = find_expansion(five[e]);
        REQUIRE(found.has_value());
        expansions.add(*found);
      }
    CAPTURE(mix);
    const int seats = 2 + static_cast<int>(mix % 3);
    // More moves than half a base game: the games were played to their end.
    CHECK(play_both_ways(expansions, seats, "apply_legal/" + std::to_string(mix)) > 60);
  }
}
