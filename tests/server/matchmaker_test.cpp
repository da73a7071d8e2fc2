// The matchmaker (competition/matchmaker.hpp): worked cases of preferences, windows, seats and
// bots, then properties over a thousand random seekers.
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "competition/matchmaker.hpp"

using namespace carcassonne::server::competition;

namespace matchmaker_cases {

seek seeker(const std::string& player, double rating, std::int64_t since_ms, seek_prefs p = {}) {
  return seek{player, "name of " + player, rating, since_ms, std::move(p), "i1", ""};
}

seek_prefs seats(int n, std::int64_t bot_after_ms = 0) {
  seek_prefs p;
  p.seats = n;
  p.bot_after_ms = bot_after_ms;
  return p;
}

const window_rules rules{100.0, 25.0, 1000.0};
const std::vector<bot_option> no_bots;
const std::vector<bot_option> three_bots{{"random", 1000}, {"greedy", 1500}, {"strong", 1800}};

std::vector<match> run(const std::vector<seek>& q, std::int64_t now,
                       const std::vector<bot_option>& bots = no_bots) {
  return find_matches(q, now, rules, bots);
}

}  // namespace matchmaker_cases

using namespace matchmaker_cases;

TEST_CASE("matchmaker: two compatible seekers are paired, open preferences settled") {
  const std::vector<seek> q{seeker("b", 1550, 1000), seeker("a", 1500, 0, seats(2))};
  const auto m = run(q, 1000);
  REQUIRE(m.size() == 1);
  CHECK(m[0].players == std::vector<std::string>{"a", "b"});  // the longest waiting first
  CHECK(m[0].bots.empty());
  CHECK(m[0].settled.seats == 2);
  CHECK(m[0].settled.expansions == std::vector<std::string>{});
  CHECK(m[0].settled.time_control == "rapid");
  CHECK(m[0].settled.rated == true);
}

TEST_CASE("matchmaker: stated preferences are kept; incompatible seekers are never paired") {
  seek_prefs blitz_unrated;
  blitz_unrated.time_control = "blitz";
  blitz_unrated.rated = false;
  blitz_unrated.expansions = std::vector<std::string>{"inns_and_cathedrals"};
  const auto m = run({seeker("a", 1500, 0, blitz_unrated), seeker("b", 1500, 0)}, 0);
  REQUIRE(m.size() == 1);
  CHECK(m[0].settled.time_control == "blitz");
  CHECK(m[0].settled.rated == false);
  CHECK(m[0].settled.expansions == std::vector<std::string>{"inns_and_cathedrals"});

  seek_prefs rapid, base, rated;
  rapid.time_control = "rapid";
  base.expansions = std::vector<std::string>{};
  rated.rated = true;
  const std::int64_t hour = 3'600'000;
  CHECK(run({seeker("a", 1500, 0, seats(2)), seeker("b", 1500, 0, seats(3))}, hour).empty());
  CHECK(run({seeker("a", 1500, 0, blitz_unrated), seeker("b", 1500, 0, rapid)}, hour).empty());
  CHECK(run({seeker("a", 1500, 0, blitz_unrated), seeker("b", 1500, 0, base)}, hour).empty());
  CHECK(run({seeker("a", 1500, 0, blitz_unrated), seeker("b", 1500, 0, rated)}, hour).empty());
  CHECK_FALSE(compatible(blitz_unrated, rapid));
  CHECK(compatible(blitz_unrated, seats(4)));
}

TEST_CASE("matchmaker: the window widens by the second, and the narrower window decides") {
  CHECK(window_of(seeker("a", 1500, 0), 0, rules) == 100.0);
  CHECK(window_of(seeker("a", 1500, 0), 1999, rules) == 125.0);
  CHECK(window_of(seeker("a", 1500, 0), 2000, rules) == 150.0);
  CHECK(window_of(seeker("a", 1500, 0), 3'600'000, rules) == 1000.0);  // at most max
  CHECK(window_of(seeker("a", 1500, 5000), 0, rules) == 100.0);        // a clock behind

  // 150 apart, both waiting since 0: windows of 150 at 2 s.
  const std::vector<seek> both{seeker("a", 1500, 0), seeker("b", 1650, 0)};
  CHECK(run(both, 1999).empty());
  CHECK(run(both, 2000).size() == 1);
  // b arrives at 2 s: a's window is wide enough then, b's only 2 s later.
  const std::vector<seek> late{seeker("a", 1500, 0), seeker("b", 1650, 2000)};
  CHECK(run(late, 2000).empty());
  CHECK(run(late, 3999).empty());
  const auto m = run(late, 4000);
  REQUIRE(m.size() == 1);
  CHECK(m[0].players == std::vector<std::string>{"a", "b"});
}

TEST_CASE("matchmaker: a 4-seat table takes the nearest that fit every window") {
  // Everyone has waited 4 s (window 200). The oldest, a (1500), takes the nearest first: c, e;
  // d (1680) is 180 from a but 230 from e, b (1300) 200 from a but 220 from c: no table yet.
  std::vector<seek> q{seeker("a", 1500, 0, seats(4)),   seeker("b", 1300, 0, seats(4)),
                      seeker("c", 1520, 100, seats(4)), seeker("d", 1680, 200),
                      seeker("e", 1450, 300, seats(4)), seeker("f", 1200, 300, seats(2))};
  CHECK(run(q, 4300).empty());
  // d at 1600 fits them all; b, the farthest from a, waits on, and so does f.
  q[3].rating = 1600;
  const auto m = run(q, 4300);
  REQUIRE(m.size() == 1);
  CHECK(m[0].players == std::vector<std::string>{"a", "c", "d", "e"});
  CHECK(m[0].settled.seats == 4);
  CHECK(m[0].bots.empty());
  // Three of four: nobody plays yet.
  CHECK(run({q[0], q[1], q[2]}, 60'000).empty());
  // An open seat count follows the group's first stated one.
  const auto open = run(
      {seeker("x", 1500, 0), seeker("y", 1510, 0, seats(3)), seeker("z", 1490, 0, seats(3))}, 0);
  REQUIRE(open.size() == 1);
  CHECK(open[0].players == std::vector<std::string>{"x", "y", "z"});
  CHECK(open[0].settled.seats == 3);
}

TEST_CASE("matchmaker: bots fill the empty seats after the seeker's wait, nearest in rating") {
  const std::vector<seek> q{seeker("a", 1660, 0, seats(3, 30'000))};
  CHECK(run(q, 29'999, three_bots).empty());
  CHECK(run(q, 3'600'000, no_bots).empty());  // no bots offered: never
  auto m = run(q, 30'000, three_bots);
  REQUIRE(m.size() == 1);
  CHECK(m[0].players == std::vector<std::string>{"a"});
  CHECK(m[0].bots == std::vector<std::string>{"strong", "strong"});  // 140 from 1660, greedy 160
  CHECK(m[0].settled.seats == 3);
  CHECK(m[0].settled.rated == false);  // a table with bots is never rated
  // A tie (150 either side) goes to the first in the list.
  m = run({seeker("a", 1650, 0, seats(2, 1000))}, 1000, three_bots);
  REQUIRE(m.size() == 1);
  CHECK(m[0].bots == std::vector<std::string>{"greedy"});
  // Open seats: one bot (2 seats).
  m = run({seeker("a", 900, 0, seek_prefs{.bot_after_ms = 1000})}, 1000, three_bots);
  REQUIRE(m.size() == 1);
  CHECK(m[0].bots == std::vector<std::string>{"random"});

  // A group that cannot fill: at 5 s a's and c's waits for bots are over, b never has one. a and
  // c play with two bots near their mean (1500: greedy); b waits on.
  const std::vector<seek> group{seeker("a", 1480, 0, seats(4, 5000)),
                                seeker("b", 1500, 0, seats(4)),
                                seeker("c", 1520, 1000, seats(4, 4000))};
  CHECK(run(group, 4999, three_bots).empty());
  m = run(group, 5000, three_bots);
  REQUIRE(m.size() == 1);
  CHECK(m[0].players == std::vector<std::string>{"a", "c"});
  CHECK(m[0].bots == std::vector<std::string>{"greedy", "greedy"});
}

TEST_CASE("matchmaker: bad seeks are ignored, a player's second seek too") {
  const auto m = run({seeker("a", 1500, 0, seats(7)), seeker("b", 1500, 0, seats(1)),
                      seeker("c", 1500, 5), seeker("c", 1500, 1)},
                     10);
  CHECK(m.empty());
}

TEST_CASE("matchmaker: a seek to JSON and back") {
  seek_prefs p = seats(3, 20'000);
  p.expansions = std::vector<std::string>{"abbot", "river"};
  p.time_control = "blitz";
  p.rated = false;
  const seek full{"p1", "Ann", 1612.5, 1234, p, "node-2", "n0nce"};
  CHECK(seek_from_json(to_json(full)) == full);
  const auto open = seeker("p2", 1400, 7);
  const auto j = to_json(open);
  CHECK_FALSE(j.contains("seats"));
  CHECK_FALSE(j.contains("rated"));
  CHECK(seek_from_json(j) == open);
  CHECK(seek_from_json(nlohmann::json::parse(R"({"player":"p","seats":null})")) ==
        seek{"p", "", 1500.0, 0, {}, "", ""});
  for (const auto* bad : {R"([])", R"({})", R"({"player":""})", R"({"player":"p","seats":"2"})",
                          R"({"player":"p","expansions":[1]})", R"({"player":"p","rated":1})",
                          R"({"player":"p","since_ms":1.5})", R"({"player":"p","rating":"high"})"})
    CHECK_MESSAGE(!seek_from_json(nlohmann::json::parse(bad)), bad);
}

namespace matchmaker_cases {

std::vector<seek> random_seekers(std::uint32_t seed, int n) {
  std::mt19937 g(seed);
  std::normal_distribution<double> rating(1500, 300);
  std::uniform_int_distribution<int> pick(0, 99);
  std::vector<seek> q;
  for (int i = 0; i < n; ++i) {
    seek_prefs p;
    if (const int s = pick(g); s < 50)
      p.seats = 2;
    else if (s < 65)
      p.seats = 3;
    else if (s < 75)
      p.seats = 4;
    if (pick(g) < 70)
      p.expansions = pick(g) < 60 ? std::vector<std::string>{} : std::vector<std::string>{"river"};
    if (const int t = pick(g); t < 80) p.time_control = t < 50 ? "rapid" : "blitz";
    if (pick(g) < 60) p.rated = pick(g) < 80;
    if (pick(g) < 20) p.bot_after_ms = 10'000 + 1000 * pick(g);
    q.push_back(seeker("p" + std::to_string(i), rating(g), 600 * pick(g), p));
  }
  return q;
}

// Every match keeps every rule of matchmaker.hpp; the seekers left could not have paired.
void check_matches(const std::vector<seek>& q, std::int64_t now, const std::vector<match>& m) {
  std::map<std::string, const seek*> by_player;
  for (const auto& s : q) by_player[s.player] = &s;
  std::set<std::string> seated;
  for (const auto& t : m) {
    REQUIRE(t.settled.seats);
    CHECK(static_cast<int>(t.players.size() + t.bots.size()) == *t.settled.seats);
    CHECK(!t.players.empty());
    CHECK(t.settled.expansions);
    CHECK(t.settled.time_control);
    REQUIRE(t.settled.rated);
    if (!t.bots.empty()) CHECK(*t.settled.rated == false);
    for (std::size_t i = 0; i < t.players.size(); ++i) {
      CHECK(seated.insert(t.players[i]).second);  // nobody in two matches
      const auto& a = *by_player.at(t.players[i]);
      auto settled = t.settled;
      if (!t.bots.empty()) {  // unrated whatever was asked
        settled.rated.reset();
        CHECK((a.prefs.bot_after_ms > 0 && now - a.since_ms >= a.prefs.bot_after_ms));
      }
      CHECK(compatible(a.prefs, settled));
      if (i > 0) CHECK(by_player.at(t.players[i - 1])->since_ms <= a.since_ms);
      for (std::size_t k = 0; k < i; ++k) {
        const auto& b = *by_player.at(t.players[k]);
        CHECK(std::abs(a.rating - b.rating) <=
              std::min(window_of(a, now, rules), window_of(b, now, rules)));
      }
    }
  }
  // Two seekers left who both want two seats, agree and fit: the older would have taken one.
  std::vector<const seek*> left;
  for (const auto& s : q)
    if (!seated.contains(s.player) && s.prefs.seats == 2) left.push_back(&s);
  for (std::size_t i = 0; i < left.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      CHECK_FALSE((compatible(left[i]->prefs, left[k]->prefs) &&
                   std::abs(left[i]->rating - left[k]->rating) <=
                       std::min(window_of(*left[i], now, rules), window_of(*left[k], now, rules))));
}

}  // namespace matchmaker_cases

TEST_CASE("matchmaker: the same matches whatever the order the queue was read in") {
  const auto q = random_seekers(7, 300);
  const auto expected = run(q, 70'000, three_bots);
  CHECK(expected.size() > 20);
  for (std::uint32_t seed = 1; seed <= 5; ++seed) {
    auto shuffled = q;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(seed));
    CHECK(run(shuffled, 70'000, three_bots) == expected);
  }
}

TEST_CASE("matchmaker: a thousand random seekers, every rule kept at every tick") {
  for (const std::uint32_t seed : {1u, 2u, 3u}) {
    auto q = random_seekers(seed, 1000);
    std::size_t matched = 0;
    // Ticks every 5 s over two minutes; the matched leave the queue as the server's take does.
    for (std::int64_t now = 0; now <= 120'000; now += 5000) {
      std::vector<seek> arrived;
      for (const auto& s : q)
        if (s.since_ms <= now) arrived.push_back(s);
      const auto m = run(arrived, now, three_bots);
      check_matches(arrived, now, m);
      std::set<std::string> gone;
      for (const auto& t : m) gone.insert(t.players.begin(), t.players.end());
      matched += gone.size();
      std::erase_if(q, [&](const seek& s) { return gone.contains(s.player); });
    }
    CHECK(matched > 800);
  }
}

TEST_CASE("matchmaker: bench-matchmaker accounts for every seeker, the same from the same seed") {
  const auto bench = [] {
    const std::vector<std::string> args{"bench-matchmaker", "--seekers", "200", "--seed", "5"};
    std::ostringstream out, err;
    REQUIRE(carcassonne::app::run_command(args, std::cin, out, err) == 0);
    auto j = nlohmann::json::parse(out.str());
    j.erase("cpu");  // timings vary
    return j;
  };
  const auto first = bench();
  CHECK(bench() == first);
  CHECK(first["matched"].get<int>() + first["waiting_at_end"].get<int>() == 200);
  CHECK(first["tables"].get<int>() * 6 >= first["matched"].get<int>());
  CHECK(first["matched"].get<int>() > 150);
}
