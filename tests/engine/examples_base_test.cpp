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
