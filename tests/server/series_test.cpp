// A best-of-N series (competition/series.hpp): seats alternating, the end as soon as it is
// decided, drawn games, the tie-break on points scored, forfeits, and its stored form.
#include <doctest/doctest.h>

#include "competition/series.hpp"

using namespace carcassonne::server::competition;

namespace series_tests {

series best_of(int n) {
  series s;
  s.id = "s1";
  s.best_of = n;
  s.players = {"ann", "bob"};
  s.names = {"Ann", "Bob"};
  return s;
}

// Plays the next game: `scores` by series player (the seats follow the series' order).
void play(series& s, const std::string& room, int ann, int bob, bool ann_forfeits = false) {
  const auto order = next_game(s);
  REQUIRE(order);
  game_started(s, room);
  const bool ann_first = (*order)[0] == 0;
  REQUIRE(
      game_ended(s, room, ann_first ? std::array{ann, bob} : std::array{bob, ann},
                 ann_first ? std::array{ann_forfeits, false} : std::array{false, ann_forfeits}));
}

}  // namespace series_tests

using namespace series_tests;

TEST_CASE("series: seats alternate, and a best of 3 ends when one player has 2") {
  auto s = best_of(3);
  CHECK(*next_game(s) == std::array{0, 1});
  play(s, "r1", 80, 60);
  CHECK(*next_game(s) == std::array{1, 0});  // Bob sits first in game 2
  CHECK_FALSE(s.finished);
  play(s, "r2", 90, 70);
  CHECK(s.finished);
  CHECK(s.winner == 0);
  CHECK(series_result(s) == 1.0);
  CHECK(series_points(s) == std::array{2.0, 0.0});
  CHECK_FALSE(next_game(s));
  CHECK(s.games[1].first == 1);
  CHECK(s.games[1].scores == std::array{90, 70});  // by series player, not by seat
}

TEST_CASE("series: a game under way blocks the next; a room not the series' is refused") {
  auto s = best_of(3);
  game_started(s, "r1");
  CHECK_FALSE(next_game(s));
  CHECK_FALSE(game_ended(s, "other", {1, 2}, {false, false}));
  CHECK(game_ended(s, "r1", {10, 20}, {false, false}));
  CHECK_FALSE(game_ended(s, "r1", {10, 20}, {false, false}));  // once
  CHECK(series_points(s) == std::array{0.0, 1.0});
}

TEST_CASE("series: drawn games count a half; level after N, points scored decide") {
  auto s = best_of(3);
  play(s, "r1", 50, 50);  // draw
  play(s, "r2", 40, 70);  // Bob
  CHECK_FALSE(s.finished);
  play(s, "r3", 66, 64);  // Ann: 1.5 each after 3
  CHECK(s.finished);
  CHECK(series_points(s) == std::array{1.5, 1.5});
  // Points scored: Ann 50 + 40 + 66 = 156, Bob 50 + 70 + 64 = 184.
  CHECK(s.winner == 1);
  CHECK(series_result(s) == 0.0);

  auto level = best_of(1);
  play(level, "r1", 33, 33);
  CHECK(level.finished);
  CHECK(level.winner == -1);  // drawn series
  CHECK(series_result(level) == 0.5);
}

TEST_CASE("series: a forfeit loses whatever the score; both forfeiting draw") {
  auto s = best_of(1);
  play(s, "r1", 90, 10, true);
  CHECK(s.finished);
  CHECK(s.winner == 1);
  series_game g;
  g.scores = std::array{5, 9};
  g.forfeited = {true, true};
  CHECK(game_result(g) == 0.5);
}

TEST_CASE("series: a best of 5 stops at 3 wins, and the stored form reads back the same") {
  auto s = best_of(5);
  s.tournament = "t1";
  s.bots = {"", "greedy"};
  play(s, "r1", 1, 2);
  play(s, "r2", 3, 2);
  play(s, "r3", 3, 2);
  CHECK_FALSE(s.finished);
  play(s, "r4", 3, 2);
  CHECK(s.finished);
  CHECK(s.games.size() == 4);
  CHECK(s.winner == 0);
  const auto back = series_from_json(to_json(s));
  REQUIRE(back);
  CHECK(*back == s);
  auto bad = to_json(s);
  bad["best_of"] = 4;
  CHECK_FALSE(series_from_json(bad));
  bad = to_json(s);
  bad["games"][0]["first"] = 2;
  CHECK_FALSE(series_from_json(bad));
  CHECK_FALSE(series_from_json(nlohmann::json::array()));
}
