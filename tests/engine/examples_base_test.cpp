// shared/rules/examples.md, base game: EX-01, EX-02, EX-03 as worked positions.
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

TEST_CASE("EX-01 joining two roads into a tie scores both thieves") {
  position p(2, {"BA/RFr", "BA/RFr"});
  p.tile(-1, 0, "BA/RRRR", 0).tile(1, 0, "BA/RFr", 0);
  p.tile(0, 1, "BA/C", 180).tile(1, 1, "BA/C", 180).tile(2, 1, "BA/C", 180).tile(3, 1, "BA/C", 180);
  p.tile(3, 0, "BA/LR", 90);
  p.follower(0, 1, 0, "road0").follower(1, 3, 0, "road0");
  CHECK(p.s.features.data(p.feature(1, 0, "road0")).open == 1);
  p.place(2, 0, 0);
  p.pass();
  CHECK(p.score_of(0) == 5);
  CHECK(p.score_of(1) == 5);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.supply_of(1) == 7);
}

TEST_CASE("EX-02 (a) a 3-tile city with a pennant scores 2 per tile + 2 per pennant") {
  position p(2, {"BA/C", "BA/RFr"});
  p.tile(0, -1, "BA/Cc+", 180);  // city S+E with a pennant: joins the start tile's city
  p.follower(0, 0, -1, "city0");
  CHECK(p.s.features.data(p.feature(0, -1, "city0")).open == 1);
  p.place(1, -1, 270);        // BA/C with its city on W closes the city
  p.pass();                   // the field of the new tile was free: Red was asked and passed
  CHECK(p.score_of(0) == 8);  // 3 tiles, 1 pennant: 2*3 + 2*1
  CHECK(p.score_of(1) == 0);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.s.features.data(p.feature(0, 0, "city0")).scored);
}

TEST_CASE("EX-02 (b) a 2-tile city completed by a player without a knight scores for the knight") {
  position p(2, {"BA/C", "BA/RFr"});
  p.tile(1, 0, "BA/RCr", 0);
  p.follower(0, 1, 0, "city0");
  p.to_move(1);
  p.place(1, -1, 180);  // Blue closes Red's city
  p.pass();
  CHECK(p.score_of(0) == 4);
  CHECK(p.score_of(1) == 0);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.supply_of(1) == 7);
}

TEST_CASE("EX-03 final scoring: road, city, monastery and field") {
  // The supply holds one tile: it is placed where it changes no value, and the game ends.
  position p = testing::ex03_position();
  CHECK(p.s.features.data(p.feature(0, 0, "city0")).scored);  // closed earlier
  CHECK_FALSE(p.s.finished);
  p.place(0, -2, 0);  // joins Red's field only (no city on it); far from the monastery
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 5);  // road (0,0),(1,0): 2; field with 1 completed city: 3
  CHECK(p.score_of(1) == 2);  // city (1,-1): 1 tile + 1 pennant
  CHECK(p.score_of(2) == 3);  // monastery: 1 + (0,0),(1,0)
  CHECK(to_act(p.s) == no_seat);
}
