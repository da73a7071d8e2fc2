// Bots: the information set hides exactly what the seat cannot see (pairs of states that differ
// only in hidden information give equal information sets and the same move at every level and
// seed), the bots are deterministic and budgeted, and every level plays only legal moves in
// every expansion mix.
#include <doctest/doctest.h>

#include <algorithm>
#include <span>
#include <string>

#include "bot_duel.hpp"
#include "carcassonne/engine/bot.hpp"
#include "easter/id.hpp"
#include "gifts/id.hpp"
#include "hills_and_sheep/id.hpp"
#include "peasant_revolts/id.hpp"
#include "peasant_revolts/peasant_revolts.hpp"
#include "random_play.hpp"

using namespace carcassonne;

namespace {

expansion_set all_five() {
  expansion_set e;
  for (int i = 0; i < player_expansion_count; ++i) e.add(static_cast<expansion>(i));
  return e;
}

using test::play_until;

std::vector<bot_level> every_level() {
  std::vector<bot_level> levels;
  for (std::size_t i = 0; i < bot_level_names.size(); ++i)
    levels.push_back(static_cast<bot_level>(i));
  return levels;
}

// The same move from a and b for every level and a few seeds (strong on a small budget).
void same_moves(const game_state& a, const game_state& b) {
  const seat_t seat = to_act(a);
  REQUIRE(to_act(b) == seat);
  const auto ia = information_set_of(a, seat);
  const auto ib = information_set_of(b, seat);
  REQUIRE(ia.state == ib.state);
  for (std::uint64_t seed : {1u, 7u, 12345u})
    for (auto level : every_level()) {
      const bot_budget budget{48, {}, 48, 3};
      CHECK(choose_move(ia, level, seed, budget).chosen ==
            choose_move(ib, level, seed, budget).chosen);
    }
}

// Shuffles the tiles still to draw with another generator (the real deck order changes).
void reshuffle_supply(game_state& s, std::uint64_t seed) {
  rng r(seed);
  r.shuffle(std::span<tile_type_id>(s.supply.data() + s.next_draw, s.supply.size() - s.next_draw));
}

bool differ(const game_state& a, const game_state& b) {
  return !(a == b);
}

}  // namespace

TEST_CASE("information set: the deck's order and the generator are hidden") {
  const auto a = play_until({}, 2, "is-deck", [](const game_state& s) { return s.turn >= 10; });
  auto b = a;
  reshuffle_supply(b, 99);
  b.random = rng(4242);
  REQUIRE(differ(a, b));
  REQUIRE(a.supply != b.supply);
  same_moves(a, b);
  // What the seat cannot see is not in its information set: the rest of the supply is sorted.
  const auto info = information_set_of(a, to_act(a));
  CHECK(std::is_sorted(info.state.supply.begin() + info.state.next_draw, info.state.supply.end()));
  CHECK(info.state.random == rng(0));
}

TEST_CASE("information set: the tile under a hill and the tiles set aside by the revolts") {
  expansion_set e;
  e.add(hills_and_sheep::id);
  e.add(peasant_revolts::id);
  const auto a = play_until(e, 3, "is-hill", [](const game_state& s) {
    return !s.out_of_play.empty() && s.awaiting == decision::place_tile;
  });
  REQUIRE(a.ext.get<peasant_revolts::state>().set_aside.size() == 3);
  auto b = a;
  // Swap the tile under the hill with a different one still in the supply.
  auto other = std::find_if(b.supply.begin() + b.next_draw, b.supply.end(),
                            [&](tile_type_id t) { return t != b.out_of_play[0]; });
  REQUIRE(other != b.supply.end());
  std::iter_swap(other, b.out_of_play.begin());
  // Swap a set-aside revolt tile with a different revolt tile of the supply (if any is left).
  auto revolt = std::find_if(b.supply.begin() + b.next_draw, b.supply.end(), [&](tile_type_id t) {
    return peasant_revolts::is_revolt_tile(t) &&
           t != b.ext.get<peasant_revolts::state>().set_aside[0];
  });
  if (revolt != b.supply.end())
    std::iter_swap(revolt, b.ext.get<peasant_revolts::state>().set_aside.begin());
  // The drawn part of the supply records which tile went under the hill: it must not leak.
  const auto hidden_at =
      std::find(b.supply.begin(), b.supply.begin() + b.next_draw, a.out_of_play[0]);
  REQUIRE(hidden_at != b.supply.begin() + b.next_draw);
  *hidden_at = b.out_of_play[0];
  REQUIRE(differ(a, b));
  same_moves(a, b);
}

TEST_CASE("information set: the other seats' gift cards and the deck, but not one's own hand") {
  expansion_set e;
  e.add(gifts::id);
  const auto a = play_until(e, 3, "is-gifts", [](const game_state& s) {
    const auto& h = s.ext.get<gifts::state>().hands;
    return s.awaiting == decision::place_tile && !h[(s.active + 1) % 3].empty() &&
           std::any_of(s.ext.get<gifts::state>().deck.begin(), s.ext.get<gifts::state>().deck.end(),
                       [&](std::uint8_t c) { return c != h[(s.active + 1) % 3][0]; });
  });
  const seat_t seat = to_act(a);
  const int other = (seat + 1) % 3;
  auto b = a;
  auto& st = b.ext.get<gifts::state>();
  auto card = std::find_if(st.deck.begin(), st.deck.end(),
                           [&](std::uint8_t c) { return c != st.hands[other][0]; });
  std::iter_swap(card, st.hands[other].begin());
  rng r(5);
  r.shuffle(std::span<std::uint8_t>(st.deck));
  REQUIRE(differ(a, b));
  same_moves(a, b);
  // The seat's own hand is its to see: a different hand is a different information set.
  auto c = a;
  auto& own = c.ext.get<gifts::state>();
  if (!own.deck.empty()) {
    own.hands[seat].push_back(own.deck.back());
    own.deck.pop_back();
    CHECK_FALSE(information_set_of(a, seat).state == information_set_of(c, seat).state);
  }
}

TEST_CASE("information set: future dice, the sheep bag's draws and scripted draws are hidden") {
  expansion_set e;
  e.add(easter::id);
  e.add(hills_and_sheep::id);
  const auto a = play_until(e, 2, "is-dice", [](const game_state& s) { return s.turn >= 20; });
  auto b = a;
  b.random = rng(777);  // every future die and sheep token comes out differently
  b.ext.get<easter::state>().scripted = true;
  b.ext.get<easter::state>().script = {3, 1, 2};
  b.ext.get<hills_and_sheep::state>().scripted = true;
  b.ext.get<hills_and_sheep::state>().script = {4, 0};
  REQUIRE(differ(a, b));
  same_moves(a, b);
  // A public difference shows: a score.
  auto c = a;
  c.players[1].score += 1;
  CHECK_FALSE(information_set_of(a, 0).state == information_set_of(c, 0).state);
}

TEST_CASE("bots are deterministic for a seed and respect the playout budget and stop") {
  const auto s = play_until(all_five(), 4, "det", [](const game_state& g) { return g.turn >= 8; });
  const auto info = information_set_of(s, to_act(s));
  const auto legal = legal_actions(s);
  for (auto level : every_level()) {
    const auto a = choose_move(info, level, 3, bot_budget{60, {}, 60, 3});
    const auto b = choose_move(info, level, 3, bot_budget{60, {}, 60, 3});
    CHECK(a.chosen == b.chosen);
    CHECK(a.playouts == b.playouts);
    CHECK(std::find(legal.begin(), legal.end(), a.chosen) != legal.end());
  }
  const auto budgeted = choose_move(info, bot_level::strong, 3, bot_budget{60});
  CHECK(budgeted.playouts <= 60);
  if (legal.size() > 1) CHECK(budgeted.playouts > 0);
  int calls = 0;
  const auto stopped = choose_move(info, bot_level::strong, 3, bot_budget{100000, [&] {
                                                                            ++calls;
                                                                            return true;
                                                                          }});
  CHECK(stopped.playouts == 0);
  CHECK(std::find(legal.begin(), legal.end(), stopped.chosen) != legal.end());
  if (legal.size() > 1) CHECK(calls >= 1);
  const auto simulated = choose_move(info, bot_level::ismcts, 3, bot_budget{0, {}, 25, 5});
  if (legal.size() > 1) CHECK(simulated.playouts == 25);
  calls = 0;
  const auto cut =
      choose_move(info, bot_level::ismcts, 3, bot_budget{0, [&] { return ++calls > 5; }});
  if (legal.size() > 1) CHECK(cut.playouts == 5);
  CHECK(std::find(legal.begin(), legal.end(), cut.chosen) != legal.end());
  CHECK(bot_level_from_name("strong") == bot_level::strong);
  CHECK_FALSE(bot_level_from_name("genius"));
  CHECK(name_of(bot_level::greedy) == "greedy");
}

TEST_CASE("every level plays only legal moves, in every expansion mix, also for another seat") {
  int bunny_decisions = 0, games = 0;
  for (int bits = 0; bits < (1 << player_expansion_count); ++bits) {
    game_setup setup;
    for (int i = 0; i < player_expansion_count; ++i)
      if (bits >> i & 1) setup.expansions.add(static_cast<expansion>(i));
    setup.seats = 2 + bits % 2;
    setup.seed = "legal/" + std::to_string(bits);
    auto game = new_game(setup);
    REQUIRE(game.ok());
    game_state s = game.value();
    std::uint64_t seed = static_cast<std::uint64_t>(bits) * 1000;
    while (!s.finished) {
      const seat_t seat = to_act(s);
      // Moves take turns: greedy, strong and ismcts on a tiny budget, then random for four (to
      // keep the test quick while the games still reach every kind of decision).
      const int turn = static_cast<int>(++seed % 7);
      const auto level = turn == 0   ? bot_level::greedy
                         : turn == 1 ? bot_level::strong
                         : turn == 2 ? bot_level::ismcts
                                     : bot_level::random;
      const auto choice =
          choose_move(information_set_of(s, seat), level, seed, bot_budget{4, {}, 4, 2});
      const auto legal = legal_actions(s);
      REQUIRE(std::find(legal.begin(), legal.end(), choice.chosen) != legal.end());
      bunny_decisions += s.awaiting == easter::decision_bunny && s.deciding != s.active;
      REQUIRE(apply_in_place(s, choice.chosen).ok());
    }
    ++games;
  }
  CHECK(games == 32);
  CHECK(bunny_decisions > 0);  // the bunny phase's decisions of a seat whose turn it is not
}

TEST_CASE("ismcts searches: on a small budget it beats random in most base games") {
  const int games = 4;
  CHECK(test::duel_wins(bot_level::ismcts, bot_level::random, "ismcts/", games,
                        bot_budget{0, {}, 60, 3}) >= games - 1);
}

TEST_CASE("greedy takes the points: it beats random in most base games") {
  const int games = 6;
  CHECK(test::duel_wins(bot_level::greedy, bot_level::random, "greedy/", games) >= games - 1);
}
