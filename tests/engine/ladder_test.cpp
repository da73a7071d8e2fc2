// The ladder (ladder.hpp): its five steps in order, each a level name that every place naming a
// level accepts, the algorithms' names unchanged, and each step's move exactly what its
// definition says: the share of random moves drawn from the seed, the algorithm's move otherwise,
// strong's playouts capped by the caller's budget.
#include <doctest/doctest.h>

#include <algorithm>

#include "bot_duel.hpp"
#include "carcassonne/engine/ladder.hpp"
#include "random_play.hpp"

using namespace carcassonne;

TEST_CASE("ladder: five named steps from beginner to expert, the algorithms' names unchanged") {
  CHECK(bot_level_names[0] == "random");
  CHECK(bot_level_names[1] == "greedy");
  CHECK(bot_level_names[2] == "strong");
  CHECK(bot_level_names[3] == "ismcts");
  const char* names[] = {"beginner", "casual", "intermediate", "advanced", "expert"};
  REQUIRE(ladder.size() == 5);
  for (std::size_t i = 0; i < ladder.size(); ++i) {
    CHECK(name_of(ladder[i].level) == names[i]);
    CHECK(bot_level_from_name(names[i]) == ladder[i].level);
    CHECK(ladder_step_of(ladder[i].level)->summary == ladder[i].summary);
    const auto a = ladder[i].algorithm;
    CHECK((a == bot_level::greedy || a == bot_level::strong || a == bot_level::random));
    if (i == 0) continue;
    // Each step is at least as strong as the one below by construction: fewer random moves, a
    // stronger algorithm, or more playouts.
    const auto& below = ladder[i - 1];
    CHECK(ladder[i].random_permille <= below.random_permille);
    CHECK(static_cast<int>(a) >= static_cast<int>(below.algorithm));
    CHECK(ladder[i].playouts >= below.playouts);
  }
  for (auto level : {bot_level::random, bot_level::greedy, bot_level::strong, bot_level::ismcts})
    CHECK_FALSE(ladder_step_of(level));
}

TEST_CASE("ladder: a step's move is its definition's, random moves drawn from the seed") {
  const auto s = test::play_until({}, 2, "ladder", [](const game_state& g) { return g.turn >= 6; });
  const auto info = information_set_of(s, to_act(s));
  const auto step = *ladder_step_of(bot_level::beginner);
  REQUIRE(step.algorithm == bot_level::greedy);
  REQUIRE(step.random_permille > 0);
  int random_moves = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    rng r(seed);
    const bool random = static_cast<int>(r.below(1000)) < step.random_permille;
    random_moves += random;
    const auto expected = random ? choose_move(info, bot_level::random, r.next())
                                 : choose_move(info, bot_level::greedy, seed);
    CHECK(choose_move(info, bot_level::beginner, seed).chosen == expected.chosen);
  }
  // The share is the step's, give or take the draw (400 seeds).
  CHECK(random_moves > 400 * step.random_permille / 1000 - 40);
  CHECK(random_moves < 400 * step.random_permille / 1000 + 40);

  // intermediate is the greedy; advanced and expert are strong with their playouts, capped by the
  // caller's budget.
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    CHECK(choose_move(info, bot_level::intermediate, seed).chosen ==
          choose_move(info, bot_level::greedy, seed).chosen);
    const auto advanced = ladder_step_of(bot_level::advanced)->playouts;
    const auto a = choose_move(info, bot_level::advanced, seed, bot_budget{100000});
    const auto b = choose_move(info, bot_level::strong, seed, bot_budget{advanced});
    CHECK(a.chosen == b.chosen);
    CHECK(a.playouts == b.playouts);
    CHECK(a.playouts <= advanced);
    const auto capped = choose_move(info, bot_level::expert, seed, bot_budget{40});
    const auto strong = choose_move(info, bot_level::strong, seed, bot_budget{40});
    CHECK(capped.chosen == strong.chosen);
    CHECK(capped.playouts == strong.playouts);
  }
}

TEST_CASE("ladder: intermediate beats beginner in most base games") {
  const int games = 6;
  CHECK(test::duel_wins(bot_level::intermediate, bot_level::beginner, "ladder/", games) >=
        games - 1);
}
