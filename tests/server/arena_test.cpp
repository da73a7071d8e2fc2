// arena (docs/bots.md): bots against bots with seats rotated, reproducible from its seed, one
// JSON line; argument errors exit 1.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "carcassonne/app/commands.hpp"

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

TEST_CASE("arena argument errors exit 1") {
  CHECK(arena({}).code == 1);
  CHECK(arena({"--bots", "genius"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--games", "0"}).code == 1);
  CHECK(arena({"--bots", "greedy,random,random", "--players", "2"}).code == 1);
  CHECK(arena({"--bots", "greedy", "--players", "7"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--expansions", "dragons"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--playouts", "-1"}).code == 1);
  CHECK(arena({"--bots", "greedy,random", "--bogus"}).code == 1);
}
