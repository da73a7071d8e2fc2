// The ladder on a server (docs/bots.md "The ladder"): GET /api/bots lists every level with its
// place on the ladder, `carcassonne ladder` plays rated games between ladder levels there (rooms of
// two ladder bots that play to the end), and each level's rating is exactly the Glicko-2 of its
// games, as the store wrote it.
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "e2e_client.hpp"
#include "process.hpp"
#include "ratings/pools.hpp"

using namespace e2e;

namespace {

json ladder_body(const http_reply& r) {
  return json::parse(r.body, nullptr, false);
}

const json* level_of(const json& bots, const std::string& name) {
  for (const auto& l : bots["levels"])
    if (l["level"] == name) return &l;
  return nullptr;
}

}  // namespace

TEST_CASE("e2e ladder: rated games between ladder levels give each level its rating") {
  temp_dir dir("carcassonne-e2e-ladder");
  auto c = test_config();
  c.journal = true;
  c.data_dir = dir.str();
  test_server server(c);
  const auto port = server.port();

  const json before = ladder_body(http_get(port, "/api/bots"));
  REQUIRE(before["levels"].size() == 9);
  CHECK(before["levels"][0]["level"] == "random");
  CHECK(before["levels"][0]["ladder"].is_null());
  CHECK(before["levels"][4]["level"] == "beginner");
  CHECK(before["levels"][4]["ladder"] == 1);
  CHECK(before["levels"][8]["level"] == "expert");
  CHECK(before["levels"][8]["ladder"] == 5);
  CHECK(before["levels"][8]["player"] == "bot-expert");
  for (const auto& l : before["levels"]) CHECK(l["ratings"].empty());
  // The levels' accounts are bots' (marked wherever a player is shown).
  CHECK(ladder_body(http_get(port, "/api/players/bot-casual"))["player"]["bot"] == true);

  std::istringstream in;
  std::ostringstream out, err;
  const std::vector<std::string> args{"ladder",  "--port",   std::to_string(port),
                                      "--games", "2",        "--rooms",
                                      "1",       "--levels", "beginner,casual"};
  REQUIRE_MESSAGE(carcassonne::app::run_command(args, in, out, err) == 0, err.str());
  const json result = json::parse(out.str());
  CHECK(result["games"] == 2);
  CHECK(result["pool"] == "duel");
  REQUIRE(result["pairings"].size() == 1);
  const json& pairing = result["pairings"][0];
  CHECK(pairing["games"] == 2);
  CHECK(pairing["wins"][0].get<int>() + pairing["wins"][1].get<int>() +
            pairing["draws"].get<int>() ==
        2);

  // The two games, oldest first, rated one after the other from 1500: the same numbers.
  const json games = ladder_body(http_get(port, "/api/players/bot-beginner/games"));
  REQUIRE(games["total"] == 2);
  namespace r = carcassonne::server::ratings;
  r::rating beginner, casual;
  for (int g = 1; g >= 0; --g) {
    const json& seats = games["games"][g]["seats"];
    CHECK(games["games"][g]["rated"] == true);
    const bool first = seats[0]["player"] == "bot-beginner";
    const std::vector<r::rating> was =
        first ? std::vector<r::rating>{beginner, casual} : std::vector<r::rating>{casual, beginner};
    const auto after = r::rate_game(was, std::vector<r::standing>{{seats[0]["score"].get<int>()},
                                                                  {seats[1]["score"].get<int>()}});
    REQUIRE(after.size() == 2);
    beginner = after[first ? 0 : 1];
    casual = after[first ? 1 : 0];
    // The level's account, with its name.
    CHECK(seats[first ? 0 : 1]["name"] == "Bot (beginner)");
    CHECK(seats[first ? 1 : 0]["player"] == "bot-casual");
  }
  const json bots = ladder_body(http_get(port, "/api/bots"));
  for (const auto& level : {std::pair{"beginner", beginner}, {"casual", casual}}) {
    const r::rating& expected = level.second;
    const json* l = level_of(bots, level.first);
    REQUIRE(l != nullptr);
    REQUIRE((*l)["ratings"].size() == 1);
    const json& row = (*l)["ratings"][0];
    CHECK(row["pool"] == "duel");
    CHECK(row["games"] == 2);
    CHECK(row["rating"].get<double>() == doctest::Approx(expected.r).epsilon(1e-12));
    CHECK(row["deviation"].get<double>() == doctest::Approx(expected.rd).epsilon(1e-12));
  }
  // The command's table is the server's.
  REQUIRE(result["levels"].size() == 2);
  CHECK(result["levels"][0]["level"] == "beginner");
  CHECK(result["levels"][0]["rating"].get<double>() == doctest::Approx(beginner.r).epsilon(1e-12));
  CHECK(result["levels"][1]["games"] == 2);

  // Refusals: an unknown level, a level twice.
  std::ostringstream out2, err2;
  const std::vector<std::string> bad{"ladder", "--games", "1", "--levels", "beginner,genius"};
  CHECK(carcassonne::app::run_command(bad, in, out2, err2) == 1);
  const std::vector<std::string> twice{"ladder", "--games", "1", "--levels", "casual,casual"};
  CHECK(carcassonne::app::run_command(twice, in, out2, err2) == 1);
}
