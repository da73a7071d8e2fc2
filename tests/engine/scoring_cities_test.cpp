// Cities (base.md §5): 2 per tile + 2 per pennant when completed, 1 + 1 at the end; a tile
// counted once even when two of its city segments end up in one city (B-2).
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

TEST_CASE("a 2-tile city is worth 4, also to a knight deployed on the tile that completes it") {
  position p(2, {"BA/C", "BA/RFr"});
  p.place(0, -1, 180);  // city S closes the start tile's city
  CHECK(p.supply_of(0) == 7);
  p.deploy(0, -1, "city0");
  CHECK(p.score_of(0) == 4);
  CHECK(p.supply_of(0) == 7);  // scored and back in the same apply
  CHECK(p.s.figures.empty());
  CHECK(p.s.active == 1);
}

TEST_CASE("a completed city with two pennants: 2 per tile + 2 per pennant") {
  position p(2, {"BA/C", "BA/RFr"});
  // (0,0) cap N; (0,-1) BA/Cc+ S+E (pennant); (1,-1) BA/CFc+ W-E band (pennant); open E.
  p.tile(0, -1, "BA/Cc+", 180).tile(1, -1, "BA/CFc+", 0);
  p.follower(0, 1, -1, "city0");
  const auto city = p.feature(0, 0, "city0");
  CHECK(p.s.features.data(city).pennants == 2);
  CHECK(p.s.features.data(city).open == 1);
  p.place(2, -1, 270);  // BA/C with its city on W
  p.pass();
  CHECK(p.score_of(0) == 12);  // 4 tiles, 2 pennants: 2*4 + 2*2
  CHECK(p.supply_of(0) == 7);
}

TEST_CASE("an incomplete city at the end scores 1 per tile + 1 per pennant") {
  position p(2, {"BA/RFr"});
  p.tile(0, -1, "BA/Cc+", 180).tile(1, -1, "BA/CFc+", 0);
  p.follower(0, 1, -1, "city0");
  p.place(1, 0, 0);  // extends the start road; the city stays open at (1,-1) E
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 5);  // 3 tiles + 2 pennants
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("a city with a knight of each of two players in a 1-1 tie at the end scores for both") {
  position p(2, {"BA/RFr"});
  // City (0,0),(0,-1),(1,-1),(1,-2): BA/Cc.1 S+E, BA/Cc.1 W+N, BA/CFc.1 band S-N (open N).
  p.tile(0, -1, "BA/Cc.1", 180).tile(1, -1, "BA/Cc.1", 0).tile(1, -2, "BA/CFc.1", 90);
  p.follower(0, 0, -1, "city0").follower(1, 1, -2, "city0");
  p.place(1, 0, 0);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 4);
  CHECK(p.score_of(1) == 4);
}

TEST_CASE("two caps of BA/CC.2 joined around a corner: the tile counts once (B-2)") {
  position p(2, {"BA/CC.2", "BA/RFr"});
  // A ring of city around the square (-1,1)-(0,2): (0,1) W+S, (-1,1) E+S, (-1,2) N+E; BA/CC.2 at
  // (0,2) brings cap N (city0) and cap W (city1), which the ring joins.
  p.tile(0, 1, "BA/Cc.1", 270).tile(-1, 1, "BA/Cc.1", 180).tile(-1, 2, "BA/Cc.1", 90);
  p.follower(0, 0, 1, "city0");
  p.place(0, 2, 0);
  const auto city = p.feature(0, 2, "city0");
  CHECK(p.feature(0, 2, "city1") == city);
  CHECK(p.s.features.data(city).size == 5);
  CHECK(distinct_tiles(p.s, city) == 4);
  CHECK(p.s.features.data(city).open == 0);
  p.pass();
  CHECK(p.score_of(0) == 8);  // 4 tiles, not 5
  CHECK(p.supply_of(0) == 7);
}

TEST_CASE("two caps of BA/CFC.2 joined around the tile: counted once in an incomplete city") {
  position p(2, {"BA/Cc.1"});  // the last tile: the game ends after this turn
  // BA/CFC.2 at (1,-1): cap N (city0) and cap S (city1). A ring joins them around its E side:
  // (1,-2) S+E, (2,-2) W+S, (2,-1) BA/Ccc N+E+S (open E), then the move's (2,0) N+W, and
  // (1,0) BA/CcRr N+E (with the road W-S carrying on the start road).
  p.tile(1, 0, "BA/CcRr", 90).tile(1, -1, "BA/CFC.2", 0);
  p.tile(1, -2, "BA/Cc.1", 180).tile(2, -2, "BA/Cc.1", 270).tile(2, -1, "BA/Ccc", 90);
  p.follower(0, 1, -1, "city0");
  CHECK(p.feature(1, -1, "city0") != p.feature(1, -1, "city1"));
  p.place(2, 0, 0);
  const auto city = p.feature(1, -1, "city0");
  CHECK(p.feature(1, -1, "city1") == city);
  CHECK(p.s.features.data(city).size == 7);
  CHECK(p.s.features.data(city).open == 1);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 6);  // 6 tiles (not 7), no pennant, incomplete: 1 each
}
