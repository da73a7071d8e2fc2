// arena (docs/bots.md): bots against bots with seats rotated, reproducible from its seed, one
// JSON line; argument errors exit 1.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "carcassonne/app/commands.hpp"
#include "carcassonne/engine/expansion_count.hpp"
#include "carcassonne/engine/ladder.hpp"

namespace {

using json = nlohmann::json;

struct outcome {
  int code;
  json out;
  std::string err;
};

outcome arena(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = carcassonne::app::run_arena(args, out, err);
  return {code, json::parse(out.str(), nullptr, false), err.str()};
}

}  // namespace

TEST_CASE("arena: greedy against random, seats rotated, reproducible") {
  const auto a = arena({"--bots", "greedy,random", "--games", "4", "--seed", "t"});
  REQUIRE(a.code == 0);
  REQUIRE(a.out["bots"].size() == 2);
  const auto& greedy = a.out["bots"][0];
  const auto& random = a.out["bots"][1];
  CHECK(greedy["bot"] == "greedy");
  CHECK(random["bot"] == "random");
  CHECK(a.out["games"] == 4);
  CHECK(a.out["players"] == 2);
  // Every game has one winner or a shared first place.
  const auto firsts = greedy["wins"].get<int>() + random["wins"].get<int>();
  CHECK(firsts + (greedy["ties"].get<int>() + random["ties"].get<int>()) / 2 == 4);
  CHECK(greedy["win_rate"].get<double>() + random["win_rate"].get<double>() ==
        doctest::Approx(1.0));
  CHECK(greedy["mean_score"].get<double>() > random["mean_score"].get<double>());
  const auto& ci = greedy["win_rate_ci95"];
  CHECK(ci[0].get<double>() <= greedy["win_rate"].get<double>());
  CHECK(ci[1].get<double>() >= greedy["win_rate"].get<double>());
  CHECK(a.out["moves"].get<long long>() > 4 * 70);
  CHECK(a.out["playouts_per_second"] == 0.0);  // neither level simulates
  const auto b = arena({"--bots", "greedy,random", "--games", "4", "--seed", "t"});
  CHECK(b.out["bots"][0]["mean_score"] == greedy["mean_score"]);
  CHECK(b.out["moves"] == a.out["moves"]);
}

TEST_CASE("arena: strong bots on a budget, expansions, more seats than bots") {
  const auto a = arena({"--bots", "strong,random", "--games", "1", "--players", "3", "--playouts",
                        "6", "--expansions", "easter,gifts", "--seed", "u"});
  REQUIRE_MESSAGE(a.code == 0, a.err);
  CHECK(a.out["players"] == 3);
  CHECK(a.out["expansions"] == json::array({"easter", "gifts"}));
  CHECK(a.out["playouts_per_second"].get<double>() > 0);
}

TEST_CASE("arena --benchmark: the published seeds in pairs, Wilson intervals, the two tables") {
  const auto a = arena({"--benchmark", "base", "--bots", "greedy,random", "--games", "4"});
  REQUIRE_MESSAGE(a.code == 0, a.err);
  CHECK(a.out["benchmark"] == "base");
  CHECK(a.out["expansions"] == json::array());
  const auto& greedy = a.out["bots"][0];
  REQUIRE(greedy["wins"] == 4);
  // Wilson's interval for 4 of 4: [0.510, 1] (the normal approximation would claim [1, 1]).
  CHECK(greedy["win_rate_ci95"][0].get<double>() == doctest::Approx(0.5101).epsilon(0.001));
  CHECK(greedy["win_rate_ci95"][1].get<double>() == 1.0);
  CHECK(a.out["bots"][1]["win_rate_ci95"][0].get<double>() == 0.0);
  // The deals are fixed; --seed (default 1) seeds only the bots' own choices.
  const auto b =
      arena({"--benchmark", "base", "--bots", "greedy,random", "--games", "4", "--seed", "1"});
  CHECK(b.out["moves"] == a.out["moves"]);
  CHECK(b.out["bots"][0]["mean_score"] == greedy["mean_score"]);
  const auto all = arena({"--benchmark", "all", "--bots", "ismcts,greedy", "--games", "2",
                          "--simulations", "4", "--determinizations", "2"});
  REQUIRE_MESSAGE(all.code == 0, all.err);
  CHECK(all.out["expansions"].size() ==
        static_cast<std::size_t>(carcassonne::player_expansion_count));
  CHECK(all.out["simulations"] == 4);
  const auto timed = arena({"--bots", "ismcts,strong", "--games", "1", "--think-ms", "1"});
  REQUIRE_MESSAGE(timed.code == 0, timed.err);
  CHECK(timed.out["think_ms"] == 1);
  CHECK(timed.out["bots"][0]["move_seconds_mean"].get<double>() < 0.5);
}

TEST_CASE("arena: a candidate ladder step plays exactly as the step it names") {
  // beginner is greedy with a share of random moves: the same share spelled out plays the same
  // games, move for move (the bots' seeds are drawn in the same order).
  const auto& beginner = carcassonne::ladder[0];
  REQUIRE(beginner.algorithm == carcassonne::bot_level::greedy);
  std::string spelled = "greedy/r";
  spelled += std::to_string(beginner.random_permille);
  const auto named = arena({"--bots", "beginner,greedy", "--games", "4", "--seed", "c"});
  const auto candidate = arena({"--bots", spelled + ",greedy", "--games", "4", "--seed", "c"});
  REQUIRE_MESSAGE(named.code == 0, named.err);
  REQUIRE_MESSAGE(candidate.code == 0, candidate.err);
  CHECK(candidate.out["bots"][0]["bot"] == spelled);
  CHECK(candidate.out["moves"] == named.out["moves"]);
  CHECK(candidate.out["bots"][0]["mean_score"] == named.out["bots"][0]["mean_score"]);
  CHECK(candidate.out["bots"][1]["mean_score"] == named.out["bots"][1]["mean_score"]);
  // strong/pN is strong with N playouts, and --playouts still caps it.
  const auto p8 = arena({"--bots", "strong/p8,greedy", "--games", "1", "--seed", "d"});
  const auto capped =
      arena({"--bots", "strong,greedy", "--games", "1", "--seed", "d", "--playouts", "8"});
  const auto both_capped =
      arena({"--bots", "strong/p50,greedy", "--games", "1", "--seed", "d", "--playouts", "8"});
  REQUIRE_MESSAGE(p8.code == 0, p8.err);
  REQUIRE_MESSAGE(capped.code == 0, capped.err);
  REQUIRE_MESSAGE(both_capped.code == 0, both_capped.err);
  CHECK(p8.out["bots"][0]["mean_score"] == capped.out["bots"][0]["mean_score"]);
  CHECK(p8.out["moves"] == capped.out["moves"]);
  CHECK(both_capped.out["bots"][0]["mean_score"] == capped.out["bots"][0]["mean_score"]);
  // A step with every move random loses to greedy.
  const auto r1000 = arena({"--bots", "greedy/r1000,greedy", "--games", "2", "--seed", "e"});
  REQUIRE_MESSAGE(r1000.code == 0, r1000.err);
  CHECK(r1000.out["bots"][0]["wins"] == 0);
  for (const char* bad : {"greedy/r1001", "greedy/p5", "ismcts/r5", "expert/r5", "greedy/",
                          "greedy/x5", "greedy/r", "greedy/r-1", "strong/p5x"})
    CHECK(arena({"--bots", std::string(bad) + ",greedy"}).code == 1);
}

TEST_CASE("arena argument errors exit 1") {
  CHECK(arena({"--benchmark", "base", "--bots", "greedy,random", "--games", "3"}).code == 1);
  CHECK(arena({"--benchmark", "base", "--bots", "greedy,random,random"}).code == 1);
  CHECK(arena({"--benchmark", "dragons", "--bots", "greedy,random"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--think-ms", "0"}).code == 1);
  CHECK(arena({}).code == 1);
  CHECK(arena({"--bots", "genius"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--games", "0"}).code == 1);
  CHECK(arena({"--bots", "greedy,random,random", "--players", "2"}).code == 1);
  CHECK(arena({"--bots", "greedy", "--players", "7"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--expansions", "dragons"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--playouts", "-1"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--bogus"}).code == 1);
}
