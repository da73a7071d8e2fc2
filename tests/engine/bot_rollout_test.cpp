// The strong bot's rollout policy at the figure step: a follower that scores at once is always
// placed, and farmers wait for the last tiles.
#include <doctest/doctest.h>

#include <string>

#include "../../engine/bots/simulate.hpp"
#include "carcassonne/engine/bot.hpp"

using namespace carcassonne;

namespace {

int score_after(const game_state& s, const move& m) {
  game_state g = s;
  REQUIRE(apply_in_place(g, m).ok());
  return g.players[s.active].score;
}

// A base game played at random, never deploying (followers stay in supply), until `found` holds
// at a figure step (nullopt if it never does).
template <class Pred>
std::optional<game_state> figure_step_where(const std::string& seed, Pred found) {
  game_setup setup;
  setup.seed = seed;
  auto game = new_game(setup);
  REQUIRE(game.ok());
  game_state s = game.value();
  rng chooser = rng::from_string(seed + "/moves");
  while (!s.finished) {
    const auto moves = legal_actions(s);
    if (s.awaiting == decision::figure && found(s, moves)) return s;
    const auto& m =
        s.awaiting == decision::figure ? moves.back() : moves[chooser.below(moves.size())];
    REQUIRE(apply_in_place(s, m).ok());
  }
  return std::nullopt;
}

bool is_field_meeple(const game_state& s, const move& m) {
  const auto& p = s.board.placed()[static_cast<std::size_t>(s.placed)];
  return m.type == move_type::deploy && m.figure == figure_type::meeple && m.at == p.pos &&
         tiles()[p.type].segments[m.feature].kind == feature_kind::field;
}

}  // namespace

TEST_CASE("rollout policy: a deploy that scores at once is taken every time") {
  int positions = 0;
  for (int g = 0; g < 6; ++g) {
    const auto s =
        figure_step_where("rollout/" + std::to_string(g), [](const game_state& st, const auto& ms) {
          return score_after(st, ms.front()) > score_after(st, ms.back());  // back: the pass
        });
    if (!s) continue;
    ++positions;
    const auto moves = legal_actions(*s);
    int best = 0;
    for (const auto& m : moves) best = std::max(best, score_after(*s, m));
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
      rng r(seed);
      CHECK(score_after(*s, bots::rollout_move(*s, moves, r)) == best);
    }
  }
  CHECK(positions >= 3);
}

TEST_CASE("rollout policy: no farmer while more than 20 tiles remain, farmers near the end") {
  const auto early = figure_step_where("farmers/early", [](const game_state& st, const auto& ms) {
    return st.tiles_left() > 20 &&
           std::any_of(ms.begin(), ms.end(), [&](const move& m) { return is_field_meeple(st, m); });
  });
  REQUIRE(early);
  const auto moves = legal_actions(*early);
  for (std::uint64_t seed = 1; seed <= 64; ++seed) {
    rng r(seed);
    CHECK_FALSE(is_field_meeple(*early, bots::rollout_move(*early, moves, r)));
  }
  const auto late = figure_step_where("farmers/late", [](const game_state& st, const auto& ms) {
    return st.tiles_left() <= 20 &&
           std::any_of(ms.begin(), ms.end(), [&](const move& m) { return is_field_meeple(st, m); });
  });
  REQUIRE(late);
  const auto late_moves = legal_actions(*late);
  int farmers = 0;
  for (std::uint64_t seed = 1; seed <= 64; ++seed) {
    rng r(seed);
    farmers += is_field_meeple(*late, bots::rollout_move(*late, late_moves, r));
  }
  CHECK(farmers > 0);
}
