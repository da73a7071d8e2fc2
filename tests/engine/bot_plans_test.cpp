// The strong bot's candidates: turn plans (a decision and the seat's own follow-ups in the same
// turn) span exactly the tree the greedy maximizes over, so a placement is judged together with
// the figure it is played for.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "../../engine/bots/evaluate.hpp"
#include "carcassonne/engine/bot.hpp"
#include "random_play.hpp"

using namespace carcassonne;

namespace {

// A game after random moves until the seat to act has a placement to decide at `turn` or later.
game_state placement_at(expansion_set expansions, int seats, const std::string& seed, int turn) {
  return test::play_until(expansions, seats, seed, [turn](const game_state& g) {
    return g.turn >= turn && g.awaiting == decision::place_tile;
  });
}

}  // namespace

TEST_CASE("turn plans: legal sequences for one seat whose best per move is the greedy's value") {
  expansion_set all;
  for (int i = 0; i < expansion_count; ++i) all.add(static_cast<expansion>(i));
  int with_follow_up = 0;
  for (const auto& s :
       {placement_at({}, 2, "plans/base", 10), placement_at(all, 3, "plans/all", 12),
        placement_at(all, 4, "plans/late", 40)}) {
    const auto moves = legal_actions(s);
    const auto values = bots::greedy_values(s, moves);
    const auto plans = bots::turn_plans(s);
    REQUIRE_FALSE(plans.empty());
    for (std::size_t i = 0; i < moves.size(); ++i) {
      double best = -1e18;
      int count = 0;
      for (const auto& p : plans)
        if (p.moves[0] == moves[i]) {
          best = std::max(best, p.value);
          ++count;
        }
      CHECK(count >= 1);
      CHECK(best == doctest::Approx(values[i]));
    }
    // Every plan replays legally, each step by the seat that planned it, within its turn.
    for (const auto& p : plans) {
      game_state g = s;
      REQUIRE(p.length >= 1);
      with_follow_up += p.length > 1;
      for (int k = 0; k < p.length; ++k) {
        REQUIRE(to_act(g) == s.deciding);
        REQUIRE(g.turn == s.turn);
        REQUIRE(apply_in_place(g, p.moves[static_cast<std::size_t>(k)]).ok());
      }
    }
  }
  CHECK(with_follow_up > 0);  // placements come with their figure decision
}
