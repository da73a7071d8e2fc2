// Events of scoring (events.hpp): feature_completed with the value and the owners, then points
// per owner, then figure_returned per follower; final scoring; in the order of the turn.
#include <algorithm>

#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;
using carcassonne::testing::tile_id;

namespace {

// The events from the first feature_completed on.
event_log from_completion(const event_log& events) {
  auto it = std::find_if(events.begin(), events.end(),
                         [](const event& e) { return e.type == event_type::feature_completed; });
  REQUIRE(it != events.end());
  return event_log(it, events.end());
}

}  // namespace

TEST_CASE("a tie on a city: completed (value, owners), points to each owner, figures back") {
  position p(3, {"BA/Cccc+", "BA/RFr"});
  // The four caps of merges_ties_test: Red (-1,-1), Blue (1,-1), Green (0,-2).
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0);
  p.tile(-1, -1, "BA/C", 90).tile(1, -1, "BA/C", 270);
  p.tile(-1, -2, "BA/L", 0).tile(0, -2, "BA/C", 180);
  p.follower(0, -1, -1, "city0").follower(1, 1, -1, "city0").follower(2, 0, -2, "city0");
  const auto all = p.place(0, -1, 0);  // figure step skipped: all in this apply
  REQUIRE(all.size() >= 2);
  CHECK(all[0].type == event_type::tile_placed);
  CHECK(all[0].tile == tile_id("BA/Cccc+"));
  const auto e = from_completion(all);
  REQUIRE(e.size() >= 7);
  CHECK(e[0].type == event_type::feature_completed);
  CHECK(e[0].kind == feature_kind::city);
  CHECK(e[0].points == 12);
  CHECK(e[0].owners == 0b111);
  for (int seat = 0; seat < 3; ++seat) {
    CAPTURE(seat);
    CHECK(e[1 + seat].type == event_type::points);
    CHECK(e[1 + seat].seat == seat);
    CHECK(e[1 + seat].points == 12);
    CHECK(e[1 + seat].kind == feature_kind::city);
    CHECK_FALSE(e[1 + seat].final);
  }
  const square_pos where[] = {{-1, -1}, {1, -1}, {0, -2}};
  for (int seat = 0; seat < 3; ++seat) {
    CAPTURE(seat);
    CHECK(e[4 + seat].type == event_type::figure_returned);
    CHECK(e[4 + seat].seat == seat);
    CHECK(e[4 + seat].at == where[seat]);
    CHECK(e[4 + seat].figure == figure_type::meeple);
  }
  // Then Blue's turn starts and draws.
  REQUIRE(e.size() == 9);
  CHECK(e[7].type == event_type::turn_started);
  CHECK(e[7].seat == 1);
  CHECK(e[8].type == event_type::tile_drawn);
}

TEST_CASE("an outvoted follower: one points event, but every follower returns") {
  position p(2, {"BA/Cccc+", "BA/RFr"});
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0);
  p.tile(-1, -1, "BA/C", 90).tile(1, -1, "BA/C", 270);
  p.tile(-1, -2, "BA/L", 0).tile(0, -2, "BA/C", 180);
  p.follower(1, -1, -1, "city0").follower(0, 1, -1, "city0").follower(1, 0, -2, "city0");
  const auto e = from_completion(p.place(0, -1, 0));
  REQUIRE(e.size() >= 5);
  CHECK(e[0].points == 12);
  CHECK(e[0].owners == 0b10);
  CHECK(e[1].type == event_type::points);
  CHECK(e[1].seat == 1);
  CHECK(e[1].points == 12);
  for (int i = 2; i < 5; ++i) CHECK(e[i].type == event_type::figure_returned);
  CHECK(e[2].seat == 1);
  CHECK(e[3].seat == 0);
  CHECK(e[4].seat == 1);
}

TEST_CASE("a follower deployed on the feature its tile completes: deployed, completed, back") {
  position p(2, {"BA/C", "BA/RFr"});
  p.place(0, -1, 180);
  const auto e = p.deploy(0, -1, "city0");
  REQUIRE(e.size() >= 4);
  CHECK(e[0].type == event_type::figure_deployed);
  CHECK(e[0].seat == 0);
  CHECK(e[0].at == square_pos{0, -1});
  CHECK(e[0].kind == feature_kind::city);
  CHECK(e[1].type == event_type::feature_completed);
  CHECK(e[1].points == 4);
  CHECK(e[1].owners == 0b01);
  CHECK(e[2].type == event_type::points);
  CHECK(e[2].points == 4);
  CHECK(e[3].type == event_type::figure_returned);
  CHECK(e[3].at == square_pos{0, -1});
}

TEST_CASE("a completion without followers: feature_completed with no owners and no points") {
  position p(2, {"BA/C", "BA/RFr"});
  p.place(0, -1, 180);
  const auto e = from_completion(p.pass());
  CHECK(e[0].points == 4);
  CHECK(e[0].owners == 0);
  CHECK(e[1].type == event_type::turn_started);
}

TEST_CASE("three features completed by one tile: three completions, each with its points") {
  position p(2, {"BA/RRRR", "BA/RFr"});
  p.tile(-1, 0, "BA/LR", 270).tile(1, 0, "BA/RFr", 0).tile(1, -1, "BA/L", 0);
  p.tile(2, -1, "BA/LR", 0).tile(3, -1, "BA/L", 0).tile(3, 0, "BA/LR", 90);
  p.follower(0, 1, 0, "road0").follower(1, 2, -1, "road0").follower(0, 3, 0, "road0");
  p.place(2, 0, 0);
  const auto e = p.pass();
  std::vector<int> values;
  std::vector<int> owner_sets;
  for (const auto& x : e)
    if (x.type == event_type::feature_completed) {
      values.push_back(x.points);
      owner_sets.push_back(x.owners);
    }
  std::sort(values.begin(), values.end());
  CHECK(values == std::vector<int>{2, 2, 4});
  CHECK(std::count(owner_sets.begin(), owner_sets.end(), 0b01) == 2);
  CHECK(std::count(owner_sets.begin(), owner_sets.end(), 0b10) == 1);
  int returned = 0, points = 0;
  for (const auto& x : e) {
    returned += x.type == event_type::figure_returned;
    if (x.type == event_type::points) points += x.points;
  }
  CHECK(returned == 3);
  CHECK(points == 8);
}

TEST_CASE("final scoring: points events marked final, roads before cities, then game_finished") {
  position p = testing::ex03_position();
  p.place(0, -2, 0);
  const auto e = p.pass();
  std::vector<event> finals;
  for (const auto& x : e)
    if (x.type == event_type::points) finals.push_back(x);
  REQUIRE(finals.size() == 4);
  const feature_kind kinds[] = {feature_kind::road, feature_kind::city, feature_kind::monastery,
                                feature_kind::field};
  const int seats[] = {0, 1, 2, 0};
  const int values[] = {2, 2, 3, 3};
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(finals[i].final);
    CHECK(finals[i].kind == kinds[i]);
    CHECK(finals[i].seat == seats[i]);
    CHECK(finals[i].points == values[i]);
  }
  CHECK(e.back().type == event_type::game_finished);
  // Final scoring leaves the figures on the board.
  CHECK(p.s.figures.size() == 4);
}
