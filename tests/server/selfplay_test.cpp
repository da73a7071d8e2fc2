// selfplay (game-record.md, "The replay command"): reproducible from its seed, and argument errors
// exit 1.
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
};

outcome selfplay(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = carcassonne::app::run_selfplay(args, out, err);
  return {code, json::parse(out.str(), nullptr, false)};
}

}  // namespace

TEST_CASE("selfplay is reproducible from its seed") {
  const auto a = selfplay({"--games", "20", "--seed", "x"});
  const auto b = selfplay({"--games", "20", "--seed", "x"});
  const auto c = selfplay({"--games", "20", "--seed", "y"});
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  REQUIRE(c.code == 0);
  CHECK(a.out["games"] == 20);
  CHECK(a.out["moves"].get<long long>() > 0);
  CHECK(a.out.contains("games_per_second"));
  REQUIRE(a.out["checksum"].is_number_unsigned());
  CHECK(a.out["checksum"] == b.out["checksum"]);
  CHECK(a.out["moves"] == b.out["moves"]);
  CHECK(a.out["checksum"] != c.out["checksum"]);
  // 71 base tiles, every one drawn: 71 turns per game (no base tile is ever unplaceable early).
  CHECK(a.out["turns"].get<long long>() <= 20 * 71);
}

TEST_CASE("selfplay with more players") {
  for (const char* p : {"3", "5", "6"}) {
    CAPTURE(p);
    const auto a = selfplay({"--games", "3", "--seed", "z", "--players", p});
    REQUIRE(a.code == 0);
    CHECK(a.out["players"] == std::stoi(p));
    CHECK(a.out["games"] == 3);
    CHECK(a.out["checksum"] ==
          selfplay({"--games", "3", "--seed", "z", "--players", p}).out["checksum"]);
  }
}

TEST_CASE("selfplay argument errors exit 1") {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--games", "abc"},
                                                                {"--games", "-1"},
                                                                {"--games", "12x"},
                                                                {"--games"},
                                                                {"--players", "1"},
                                                                {"--players", "7"},
                                                                {"--expansions", "dragons"},
                                                                {"--seed"},
                                                                {"--frobnicate"},
                                                                {"20"}}) {
    CAPTURE(json(args).dump());
    CHECK(selfplay(args).code == 1);
  }
}

TEST_CASE("the command dispatcher") {
  std::istringstream in;
  std::ostringstream out, err;
  const auto run = [&](std::vector<std::string> args) {
    return carcassonne::app::run_command(args, in, out, err);
  };
  CHECK(run({}) == 1);
  CHECK(run({"help"}) == 0);
  CHECK(run({"frobnicate"}) == 1);
  CHECK(run({"selfplay", "--games", "1", "--seed", "q"}) == 0);
}
