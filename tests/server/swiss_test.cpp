// Swiss pairings, standings and knockout brackets (server/src/competition/swiss, knockout) on
// small fields worked out by hand: the score groups, the Dutch halves, a repeat avoided, byes,
// tables of 3, Buchholz and Sonneborn–Berger, seeded brackets.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "competition/knockout.hpp"
#include "competition/swiss.hpp"

// Inside the part's namespace: other files of the unity build bring other `standing`s into scope.
namespace carcassonne::server::competition {

namespace swiss_tests {

using tables_t = std::vector<std::vector<std::string>>;

// "a c | b d": tables (or slots) as text, for readable failures.
std::string swiss_text(const tables_t& tables) {
  std::string out;
  for (const auto& t : tables) {
    if (!out.empty()) out += " | ";
    for (std::size_t i = 0; i < t.size(); ++i) out += (i > 0 ? " " : "") + t[i];
  }
  return out;
}

// a, b, c... rated 1900, 1800, 1700...: the rating order is the alphabetical one.
std::vector<entrant> swiss_field(int n) {
  std::vector<entrant> out;
  for (int i = 0; i < n; ++i)
    out.push_back({std::string(1, static_cast<char>('a' + i)), 1900.0 - 100.0 * i});
  return out;
}

// A duel, `first` in the first seat with `first_result` against `second` (1, 0.5 or 0).
table_result swiss_duel(int round, const std::string& first, const std::string& second,
                        double first_result) {
  return {round, {first, second}, {{0.0, first_result}, {1.0 - first_result, 0.0}}};
}

std::vector<std::string> seeds(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back("s" + std::to_string(i));
  return out;
}

tables_t seed_slots(const std::vector<std::vector<int>>& numbers) {
  tables_t out;
  for (const auto& slot : numbers) {
    auto& s = out.emplace_back();
    for (int n : slot) s.push_back("s" + std::to_string(n));
  }
  return out;
}

}  // namespace swiss_tests

using namespace swiss_tests;

TEST_CASE("swiss: a table's points are its pair results over k - 1 and add up to k / 2") {
  // a beats b and c, b and c draw.
  const table_result t{1, {"a", "b", "c"}, {{0, 1, 1}, {0, 0, 0.5}, {0, 0.5, 0}}};
  CHECK(table_points(t) == std::vector<double>{1.0, 0.25, 0.25});
  CHECK(table_points(swiss_duel(1, "a", "b", 0.5)) == std::vector<double>{0.5, 0.5});
}

TEST_CASE("swiss: four players, three rounds, by hand") {
  const auto field = swiss_field(4);
  swiss_history h;
  // Round 1: one score group, top half against bottom half: a v c, b v d.
  auto r1 = pair_swiss_round(field, h, 2);
  CHECK(swiss_text(r1.tables) == swiss_text(tables_t{{"a", "c"}, {"b", "d"}}));
  CHECK(r1.byes.empty());
  h.games = {swiss_duel(1, "a", "c", 1), swiss_duel(1, "b", "d", 1)};
  // Round 2: the winners {a, b} and the losers {c, d}; c and d both sat second: c, rated higher,
  // sits first.
  auto r2 = pair_swiss_round(field, h, 2);
  CHECK(swiss_text(r2.tables) == swiss_text(tables_t{{"a", "b"}, {"c", "d"}}));
  h.games.push_back(swiss_duel(2, "a", "b", 1));
  h.games.push_back(swiss_duel(2, "c", "d", 1));
  // Round 3: a (2) is alone in its group and floats down; b and c met a already, d did not.
  // b and c (1 each) then meet. d sat second twice: d takes the first seat; b and c are even.
  auto r3 = pair_swiss_round(field, h, 2);
  CHECK(swiss_text(r3.tables) == swiss_text(tables_t{{"d", "a"}, {"b", "c"}}));
  CHECK(times_met(h, "a", "b") == 1);
  CHECK(times_met(h, "b", "a") == 1);
  CHECK(times_met(h, "a", "d") == 0);
  // The entrants' order does not matter.
  const std::vector<entrant> shuffled{field[2], field[0], field[3], field[1]};
  CHECK(pair_swiss_round(shuffled, h, 2) == r3);
}

TEST_CASE("swiss: five players, byes to the lowest ranked without one, Buchholz decides") {
  const auto field = swiss_field(5);
  swiss_history h;
  auto r1 = pair_swiss_round(field, h, 2);
  CHECK(swiss_text(r1.tables) == swiss_text(tables_t{{"a", "c"}, {"b", "d"}}));
  CHECK(r1.byes == std::vector<std::string>{"e"});
  h.games = {swiss_duel(1, "a", "c", 1), swiss_duel(1, "b", "d", 0)};
  h.byes = {{1, "e", 1.0}};
  // Points: a, d, e 1; b, c 0. The bye: c (e had one). Group {a, d, e}: a v d; e floats to b.
  auto r2 = pair_swiss_round(field, h, 2);
  CHECK(swiss_text(r2.tables) == swiss_text(tables_t{{"d", "a"}, {"e", "b"}}));
  CHECK(r2.byes == std::vector<std::string>{"c"});
  h.games.push_back(swiss_duel(2, "d", "a", 0));
  h.games.push_back(swiss_duel(2, "e", "b", 0));
  h.byes.push_back({2, "c", 1.0});
  // Points: a 2; b, c, d, e 1. The bye: d (the lowest of a, b, d). a floats to b; c v e. a and
  // b have each sat first once in two games: the higher ranked takes the first seat.
  auto r3 = pair_swiss_round(field, h, 2);
  CHECK(swiss_text(r3.tables) == swiss_text(tables_t{{"a", "b"}, {"c", "e"}}));
  CHECK(r3.byes == std::vector<std::string>{"d"});
  h.games.push_back(swiss_duel(3, "a", "b", 1));
  h.games.push_back(swiss_duel(3, "c", "e", 0.5));
  h.byes.push_back({3, "d", 1.0});

  // Final points a 3, d 2, c 1.5, e 1.5, b 1. c met a (3) and e (1.5): Buchholz 4.5; e met b (1)
  // and c: 2.5. Sonneborn-Berger: a beat c, d, b: 1.5 + 2 + 1; d beat b: 1; c and e drew: 0.75;
  // b beat e: 1.5.
  const auto s = swiss_standings(field, h);
  const std::vector<standing> expected{{"a", 3.0, 4.5, 4.5, 3, 0, 1},
                                       {"d", 2.0, 4.0, 1.0, 2, 1, 2},
                                       {"c", 1.5, 4.5, 0.75, 2, 1, 3},
                                       {"e", 1.5, 2.5, 0.75, 2, 1, 4},
                                       {"b", 1.0, 6.5, 1.5, 3, 0, 5}};
  CHECK(s == expected);
}

TEST_CASE("swiss: six players, the Dutch pairing gives way to avoid a repeat") {
  const auto field = swiss_field(6);
  swiss_history h;
  CHECK(swiss_text(pair_swiss_round(field, h, 2).tables) ==
        swiss_text(tables_t{{"a", "d"}, {"b", "e"}, {"c", "f"}}));
  h.games = {swiss_duel(1, "a", "d", 1), swiss_duel(1, "b", "e", 1), swiss_duel(1, "c", "f", 1)};
  // {a, b, c}: a v b, c floats to d; {e, f}.
  CHECK(swiss_text(pair_swiss_round(field, h, 2).tables) ==
        swiss_text(tables_t{{"a", "b"}, {"d", "c"}, {"e", "f"}}));
  h.games.push_back(swiss_duel(2, "a", "b", 1));
  h.games.push_back(swiss_duel(2, "d", "c", 0));
  h.games.push_back(swiss_duel(2, "e", "f", 1));
  // a, c 2; b, e 1; d, f 0. a v c; b met e, and b v d would leave e v f, who met too: b takes
  // f, and e floats down to d.
  CHECK(swiss_text(pair_swiss_round(field, h, 2).tables) ==
        swiss_text(tables_t{{"c", "a"}, {"f", "b"}, {"e", "d"}}));
}

TEST_CASE("swiss: a director's bye, then the lowest ranked sits out") {
  const auto field = swiss_field(4);
  const std::vector<std::string> asked{"a"};
  const auto r = pair_swiss_round(field, {}, 2, asked);
  CHECK(swiss_text(r.tables) == swiss_text(tables_t{{"b", "c"}}));
  CHECK(r.byes == std::vector<std::string>{"a", "d"});
}

TEST_CASE("swiss: tables of 3, short by one seat rather than a bye, and the fewest repeats") {
  CHECK(swiss_text(pair_swiss_round(swiss_field(7), {}, 3).tables) ==
        swiss_text(tables_t{{"a", "b", "c"}, {"d", "e"}, {"f", "g"}}));
  const auto one = pair_swiss_round(swiss_field(1), {}, 3);
  CHECK(one.tables.empty());
  CHECK(one.byes == std::vector<std::string>{"a"});
  // Six players at two tables: round 2 must seat two players of one first-round table together
  // at both tables (two repeats); the first such seating in rank order is taken.
  const auto field = swiss_field(6);
  swiss_history h;
  CHECK(swiss_text(pair_swiss_round(field, h, 3).tables) ==
        swiss_text(tables_t{{"a", "b", "c"}, {"d", "e", "f"}}));
  const std::vector<std::vector<double>> a_wins_b_beats_c{{0, 1, 1}, {0, 0, 1}, {0, 0, 0}};
  const std::vector<std::vector<double>> all_draw{{0, .5, .5}, {.5, 0, .5}, {.5, .5, 0}};
  h.games = {{1, {"a", "b", "c"}, a_wins_b_beats_c}, {1, {"d", "e", "f"}, all_draw}};
  // Points a 1; b, d, e, f 0.5; c 0. Seats: who sat first least for its share goes first.
  CHECK(swiss_text(pair_swiss_round(field, h, 3).tables) ==
        swiss_text(tables_t{{"b", "a", "d"}, {"e", "f", "c"}}));
}

TEST_CASE("swiss: fields too small for a table, and no field") {
  CHECK(pair_swiss_round(std::vector<entrant>{}, {}, 2) == round_pairing{});
  // Two players and tables of 6: a table of 2 would be four seats short, so both sit out.
  const auto two = pair_swiss_round(swiss_field(2), {}, 6);
  CHECK(two.tables.empty());
  CHECK(two.byes == std::vector<std::string>{"a", "b"});
  // Eight at tables of 6: one table of 6 and two byes (a second table of 2 would be too short).
  const auto eight = pair_swiss_round(swiss_field(8), {}, 6);
  CHECK(swiss_text(eight.tables) == "a b c d e f");
  CHECK(eight.byes == std::vector<std::string>{"g", "h"});
}

TEST_CASE("knockout: duels of 8 and 16, the standard bracket") {
  const auto eight = seeds(8);
  const auto r1 = first_knockout_round(eight, 2);
  CHECK(swiss_text(r1.slots) == swiss_text(seed_slots({{1, 8}, {4, 5}, {2, 7}, {3, 6}})));
  CHECK(knockout_rounds(8, 2) == 3);
  // The better seed always wins: 1 v 4 and 2 v 3, then 1 v 2 in the final.
  const std::vector<std::string> through{"s1", "s4", "s2", "s3"};
  CHECK(swiss_text(next_knockout_round(through, 2).slots) ==
        swiss_text(seed_slots({{1, 4}, {2, 3}})));
  CHECK(swiss_text(next_knockout_round(std::vector<std::string>{"s1", "s2"}, 2).slots) ==
        swiss_text(seed_slots({{1, 2}})));
  CHECK(next_knockout_round(std::vector<std::string>{"s1"}, 2).slots.empty());

  CHECK(swiss_text(first_knockout_round(seeds(16), 2).slots) ==
        swiss_text(
            seed_slots({{1, 16}, {8, 9}, {4, 13}, {5, 12}, {2, 15}, {7, 10}, {3, 14}, {6, 11}})));
  CHECK(knockout_rounds(16, 2) == 4);
}

TEST_CASE("knockout: duels of 6 and 5, byes for the top seeds") {
  CHECK(swiss_text(first_knockout_round(seeds(6), 2).slots) ==
        swiss_text(seed_slots({{1}, {4, 5}, {2}, {3, 6}})));
  CHECK(knockout_rounds(6, 2) == 3);
  CHECK(swiss_text(first_knockout_round(seeds(5), 2).slots) ==
        swiss_text(seed_slots({{1}, {4, 5}, {2}, {3}})));
  CHECK(knockout_rounds(5, 2) == 3);
  CHECK(swiss_text(first_knockout_round(seeds(2), 2).slots) == swiss_text(seed_slots({{1, 2}})));
  CHECK(knockout_rounds(2, 2) == 1);
  CHECK(first_knockout_round(seeds(1), 2).slots.empty());
  CHECK(knockout_rounds(1, 2) == 0);
}

TEST_CASE("knockout: tables of 3 and 4, seeds dealt in a snake") {
  CHECK(swiss_text(first_knockout_round(seeds(9), 3).slots) ==
        swiss_text(seed_slots({{1, 6, 7}, {2, 5, 8}, {3, 4, 9}})));
  CHECK(knockout_rounds(9, 3) == 2);
  // 27 at 9 tables: the second round takes three tables at a time, each a snake of table heads.
  CHECK(swiss_text(first_knockout_round(seeds(27), 3).slots) ==
        swiss_text(seed_slots({{1, 18, 19},
                               {6, 13, 24},
                               {7, 12, 25},
                               {2, 17, 20},
                               {5, 14, 23},
                               {8, 11, 26},
                               {3, 16, 21},
                               {4, 15, 22},
                               {9, 10, 27}})));
  CHECK(knockout_rounds(27, 3) == 3);
  // 16 at 4 tables of 4; 10 at tables of 3, 3 and 4 (the top seeds' tables short).
  CHECK(swiss_text(first_knockout_round(seeds(16), 4).slots) ==
        swiss_text(seed_slots({{1, 8, 9, 16}, {2, 7, 10, 15}, {3, 6, 11, 14}, {4, 5, 12, 13}})));
  CHECK(swiss_text(first_knockout_round(seeds(10), 4).slots) ==
        swiss_text(seed_slots({{1, 6, 7}, {2, 5, 8}, {3, 4, 9, 10}})));
  CHECK(knockout_rounds(10, 4) == 2);
  // 5 at tables of 4: a table of 4 and a bye for the top seed (a second table would be of 1).
  CHECK(swiss_text(first_knockout_round(seeds(5), 4).slots) ==
        swiss_text(seed_slots({{1}, {2, 3, 4, 5}})));
  CHECK(knockout_rounds(5, 4) == 2);
  // Fewer than k - 1: one table, the final.
  CHECK(swiss_text(first_knockout_round(seeds(3), 6).slots) == swiss_text(seed_slots({{1, 2, 3}})));
  CHECK(knockout_rounds(3, 6) == 1);
  // Later rounds: consecutive groups, the last shorter or a bye.
  CHECK(swiss_text(next_knockout_round(seeds(7), 3).slots) ==
        swiss_text(seed_slots({{1, 2, 3}, {4, 5, 6}, {7}})));
  CHECK(swiss_text(next_knockout_round(seeds(5), 4).slots) ==
        swiss_text(seed_slots({{1, 2, 3, 4}, {5}})));
}

}  // namespace carcassonne::server::competition
