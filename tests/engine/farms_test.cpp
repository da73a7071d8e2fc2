// Fields at the end of the game (base.md §5, B-3): 3 points per completed city bordering the
// field, each city once, each field on its own; majority as for every feature.
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

namespace {

// Board of the first tests, built on row y = -1:
//   (0,-1) BA/C cap S (closes the start city); (1,-1), (2,-1) BA/CFC.2 caps N and S;
//   (1,-2), (2,-2) BA/C cap S closing the N caps.
// Field F = (0,-1) field0 + (1,-1) field0 + (2,-1) field0 (between the caps), field G = (1,-2)
// field0 + (2,-2) field0 (north of the N caps); they do not touch.
void city_row(position& p) {
  p.tile(0, -1, "BA/C", 180).tile(1, -1, "BA/CFC.2", 0).tile(1, -2, "BA/C", 180);
  p.tile(2, -1, "BA/CFC.2", 0).tile(2, -2, "BA/C", 180);
}

}  // namespace

TEST_CASE("a field scores 3 per bordering completed city; an incomplete one gives nothing") {
  position p(2, {"BA/RCr"});
  city_row(p);
  p.follower(0, 0, -1, "field0").follower(1, 1, -2, "field0");
  CHECK(p.feature(0, -1, "field0") == p.feature(2, -1, "field0"));
  CHECK(p.feature(1, -2, "field0") == p.feature(2, -2, "field0"));
  CHECK(p.feature(0, -1, "field0") != p.feature(1, -2, "field0"));
  // The last tile closes the S cap of (1,-1) during play (nobody owns it: no points).
  p.place(1, 0, 0);
  p.pass();
  CHECK(p.s.features.data(p.feature(1, 0, "city0")).scored);
  REQUIRE(p.s.finished);
  // F borders 4 completed cities (start city, (1,-1) N, (1,-1) S, (2,-1) N) and the open
  // (2,-1) S cap: 12. G borders the (1,-1) N and (2,-1) N cities, which also border F: 6.
  CHECK(p.score_of(0) == 12);
  CHECK(p.score_of(1) == 6);
}

TEST_CASE("the same board with both S caps left open: only the 3 completed cities count") {
  position p(2, {"BA/RFr"});
  city_row(p);
  p.follower(0, 0, -1, "field0");
  p.place(-1, 0, 0);  // far from the row
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 9);  // start city, (1,-1) N, (2,-1) N
}

namespace {

// (0,-1) BA/C closes the start city; BA/L on (-1,-1) and (1,-1) join its field (N, E, W sides).
void one_city_field(position& p) {
  p.tile(0, -1, "BA/C", 180).tile(-1, -1, "BA/L", 0).tile(1, -1, "BA/L", 0);
}

}  // namespace

TEST_CASE("farmers tied 1-1 on a field both score the full value") {
  position p(2, {"BA/RFr"});
  one_city_field(p);
  p.follower(0, -1, -1, "field0").follower(1, 1, -1, "field0");
  CHECK(p.feature(-1, -1, "field0") == p.feature(1, -1, "field0"));
  // (1,0): its N field joins the big field, its W half joins the start tile's strip field; both
  // border only the start city.
  p.place(1, 0, 0);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 3);
  CHECK(p.score_of(1) == 3);
}

TEST_CASE("farmers 2-1 on a field: only the majority scores") {
  position p(2, {"BA/RFr"});
  one_city_field(p);
  p.follower(0, -1, -1, "field0").follower(1, 1, -1, "field0").follower(0, 0, -1, "field0");
  p.place(1, 0, 0);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 3);
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("three farmers of three players on one field all score") {
  position p(3, {"BA/RFr"});
  one_city_field(p);
  p.follower(0, -1, -1, "field0").follower(1, 1, -1, "field0").follower(2, 0, -1, "field0");
  p.place(1, 0, 0);
  p.pass();
  REQUIRE(p.s.finished);
  for (int seat = 0; seat < 3; ++seat) CHECK(p.score_of(seat) == 3);
}

TEST_CASE("a field bordering one completed city through two segments counts it once") {
  // The BA/CC.2 ring of scoring_cities_test: the move completes the city and Red puts a farmer
  // on the field of BA/CC.2, which lists both caps (now one city). The game then ends.
  position p(2, {"BA/CC.2"});
  p.tile(0, 1, "BA/Cc.1", 270).tile(-1, 1, "BA/Cc.1", 180).tile(-1, 2, "BA/Cc.1", 90);
  p.place(0, 2, 0);
  p.deploy(0, 2, "field0");
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 3);  // one city, not two; nobody owned the city itself
}

TEST_CASE("a field with no farmer scores nothing; a farmer on a field with no city scores 0") {
  position p(2, {"BA/RFr"});
  one_city_field(p);
  p.tile(0, 1, "BA/L", 0);
  p.follower(1, 0, 1, "field0");  // south of the start road: borders no city
  p.place(1, 0, 0);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 0);
  CHECK(p.score_of(1) == 0);
}
