// The Hills & Sheep special edges, joined by the base rule of base.md §2 (tiles.md "Things an
// engine must support" 1-2, hills_and_sheep.md §5): HS/C!.v's split field edge (S: SL is field0,
// SR is field1) and HS/CC!.v's split city edge (N: city0 and city1 both reach it).
// The position helper places these tiles directly; the moves are base tiles.
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

TEST_CASE("HS/C!.v: a neighbour with one field across the split edge joins the two fields") {
  position p(2, {"BA/RFr"});
  p.tile(0, -1, "BA/C", 180);   // closes the start city; its field runs N, E, W
  p.tile(1, -1, "HS/C!.v", 0);  // city N (open), split field edge S facing (1,0)
  CHECK(p.feature(1, -1, "field0") != p.feature(1, -1, "field1"));
  CHECK(p.feature(1, -1, "field1") == p.feature(0, -1, "field0"));  // across the W side
  p.follower(0, 1, -1, "field0");  // E part: borders only the open spike city
  p.follower(1, 0, -1, "field0");  // W part: borders the completed start city
  p.place(1, 0, 0);                // BA/RFr: its N edge is one field (field0)
  CHECK(p.feature(1, -1, "field0") == p.feature(1, -1, "field1"));
  CHECK(p.feature(1, 0, "field0") == p.feature(1, -1, "field0"));
  p.pass();
  REQUIRE(p.s.finished);
  // One field, one farmer each: it borders the completed start city (3) and the open spike city.
  CHECK(p.score_of(0) == 3);
  CHECK(p.score_of(1) == 3);
}

TEST_CASE("HS/C!.v: two split field edges facing each other keep the two pairs separate") {
  position p(2, {"BA/RFr"});
  p.tile(0, -1, "HS/C!.v", 180);  // city S joins the start city; split edge N
  p.tile(0, -2, "HS/C!.v", 0);    // split edge S faces it; city N open
  // W halves meet W halves, E halves meet E halves.
  const auto west = p.feature(0, -1, "field0");  // (0,-1) rotated: field0 is on the W side
  const auto east = p.feature(0, -1, "field1");
  CHECK(west != east);
  CHECK(p.feature(0, -2, "field1") == west);  // unrotated: field1 is the W part
  CHECK(p.feature(0, -2, "field0") == east);
  CHECK(p.s.features.data(west).size == 2);
  CHECK(p.s.features.data(east).size == 2);
}

TEST_CASE("HS/CC!.v: with nothing across N the two cities stay separate and open") {
  position p(2, {"BA/C", "BA/RFr"});
  p.tile(0, -1, "BA/C", 180);    // field N faces the special tile's field S
  p.tile(0, -2, "HS/CC!.v", 0);  // city0 N+W, city1 E (+ N)
  p.tile(-1, -2, "BA/C", 90);    // closes city0's W side
  p.tile(1, -2, "BA/C", 270);    // closes city1's E side
  const auto c0 = p.feature(0, -2, "city0");
  const auto c1 = p.feature(0, -2, "city1");
  CHECK(c0 != c1);
  CHECK(p.s.features.data(c0).open == 1);  // N
  CHECK(p.s.features.data(c1).open == 1);  // N
  CHECK_FALSE(p.s.features.data(c0).scored);
  CHECK_FALSE(p.s.features.data(c1).scored);

  SUBCASE("a city placed across N joins both and completes them as one city") {
    p.follower(0, 0, -2, "city0").follower(1, 0, -2, "city1");
    p.place(0, -3, 180);  // BA/C, cap S
    const auto city = p.feature(0, -2, "city0");
    CHECK(p.feature(0, -2, "city1") == city);
    CHECK(p.feature(0, -3, "city0") == city);
    CHECK(p.s.features.data(city).open == 0);
    p.pass();
    // (0,-2), (-1,-2), (1,-2), (0,-3): 4 tiles (the special tile once), 1-1 tie.
    CHECK(p.score_of(0) == 8);
    CHECK(p.score_of(1) == 8);
    CHECK(p.supply_of(0) == 7);
    CHECK(p.supply_of(1) == 7);
  }
  SUBCASE("a knight on city0 occupies city1 once the N edge is covered") {
    p.follower(1, 0, -2, "city0");
    p.place(0, -3, 180);
    // city1 now belongs to the city of Blue's knight: Red cannot take it.
    CHECK(p.score_of(1) == 0);  // not scored before the figure step ends
    CHECK(p.refused(p.deploy_move(0, -3, "city0")) == error_code::feature_occupied);
    p.pass();
    CHECK(p.score_of(1) == 8);
  }
}

TEST_CASE("HS/CC!.v: two split city edges facing each other join all four parts") {
  position p(2, {"BA/C", "BA/RFr"});
  p.tile(0, -1, "BA/C", 180);
  p.tile(0, -2, "HS/CC!.v", 0);    // split edge N
  p.tile(0, -3, "HS/CC!.v", 180);  // split edge S; city0 S+E, city1 W+S
  const auto city = p.feature(0, -2, "city0");
  CHECK(p.feature(0, -2, "city1") == city);
  CHECK(p.feature(0, -3, "city0") == city);
  CHECK(p.feature(0, -3, "city1") == city);
  CHECK(p.s.features.data(city).open == 4);  // W and E of both tiles
  // Close three of the four sides, then the move closes the last one.
  p.tile(-1, -2, "BA/C", 90).tile(1, -2, "BA/C", 270).tile(-1, -3, "BA/C", 90);
  CHECK(p.s.features.data(p.feature(0, -2, "city0")).open == 1);
  p.follower(0, 0, -3, "city1");
  p.place(1, -3, 270);
  p.pass();
  CHECK(p.score_of(0) == 12);  // 6 tiles: (0,-2), (0,-3), (-1,-2), (1,-2), (-1,-3), (1,-3)
  CHECK(p.supply_of(0) == 7);
}
