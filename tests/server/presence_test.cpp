// Who is at the table, without a room (room/presence.hpp): seats away from the moment they lose
// their connection, the moment every person in play has been away for the limit, and the bots
// leaving with the last person.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "carcassonne/engine/forfeit.hpp"
#include "fake_client.hpp"
#include "room/presence.hpp"

namespace {

using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using namespace std::chrono_literals;

// A three-seat game: Ann and Bo are persons, the third seat a bot.
struct presence_table {
  carcassonne::game_state game;
  std::vector<seat_slot> seats{3};
  presence_time t0{1h};

  presence_table() : game(start()) {
    seats[2].bot = carcassonne::bot_level::greedy;
    seats[0].client = std::make_shared<fake_client>();
  }
  static carcassonne::game_state start() {
    std::ifstream in(std::string(CARCASSONNE_SOURCE_DIR) +
                     "/tests/records/ex03_final_scoring.json");
    auto g = game_at_start(nlohmann::json::parse(in).at("setup"));
    REQUIRE(g);
    return *g;
  }
};

}  // namespace

TEST_CASE("presence: every person away for the limit ends it, the bots leave with the last") {
  presence_table t;
  note_presence(t.seats, t.t0);
  CHECK_FALSE(t.seats[0].away_since);
  CHECK(t.seats[1].away_since == t.t0);
  CHECK_FALSE(all_away_at(t.game, t.seats, 60s));  // Ann is here
  CHECK(all_away(t.game, t.seats) == 0);

  t.seats[0].client.reset();
  note_presence(t.seats, t.t0 + 10s);
  CHECK(t.seats[1].away_since == t.t0);  // away since it left, not since the last look
  CHECK(all_away_at(t.game, t.seats, 60s) == t.t0 + 70s);  // the last to leave, plus the limit
  CHECK_FALSE(all_away_at(t.game, t.seats, 0s));           // no limit: never
  CHECK(all_away(t.game, t.seats) == 0b011);               // the bot is never away
  CHECK(with_bots_if_no_person_left(t.game, t.seats, 0b011) == 0b111);
  CHECK(with_bots_if_no_person_left(t.game, t.seats, 0b001) == 0b001);  // Bo stays

  t.seats[1].client = std::make_shared<fake_client>();  // Bo is back
  note_presence(t.seats, t.t0 + 20s);
  CHECK_FALSE(t.seats[1].away_since);
  CHECK_FALSE(all_away_at(t.game, t.seats, 60s));
}

TEST_CASE("presence: a seat that forfeited is neither waited for nor kept") {
  presence_table t;
  REQUIRE(forfeit(t.game, 0b010, nullptr));  // Bo resigned
  t.seats[0].client.reset();
  note_presence(t.seats, t.t0);
  CHECK(all_away(t.game, t.seats) == 0b001);
  CHECK(all_away_at(t.game, t.seats, 30s) == t.t0 + 30s);
  CHECK(with_bots_if_no_person_left(t.game, t.seats, 0b001) == 0b101);
}
