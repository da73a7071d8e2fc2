// Monasteries (base.md §5): 9 when the 8 surrounding squares hold tiles, 1 + 1 per surrounding
// tile at the end of the game.
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

namespace {

// Roads W and E of the start tile, then BA/L on every square around (0,1) but `skip`, and on
// (0,1) itself unless it is skipped.
void ring_around_0_1(position& p, int skip_x, int skip_y) {
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0);
  const int squares[][2] = {{0, 1}, {-1, 1}, {1, 1}, {-1, 2}, {0, 2}, {1, 2}};
  for (const auto& q : squares)
    if (q[0] != skip_x || q[1] != skip_y) p.tile(q[0], q[1], "BA/L", 0);
}

}  // namespace

TEST_CASE("a monastery is completed by a diagonal neighbour: 9 points, the monk returns") {
  position p(2, {"BA/L", "BA/RFr"});
  ring_around_0_1(p, 1, 2);
  p.follower(0, 0, 1, "monastery0");
  CHECK(p.s.board.placed()[p.s.board.tile_at({0, 1})].surrounding == 7);
  p.place(1, 2, 0);  // the 8th surrounding square, diagonal to (0,1)
  p.pass();
  CHECK(p.score_of(0) == 9);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.s.features.data(p.feature(0, 1, "monastery0")).scored);
  // The other monasteries of the ring are not surrounded and stay open.
  CHECK_FALSE(p.s.features.data(p.feature(1, 1, "monastery0")).scored);
}

TEST_CASE("a monk deployed on a monastery placed into a full ring scores 9 at once") {
  position p(2, {"BA/L", "BA/RFr"});
  ring_around_0_1(p, 0, 1);  // the ring is complete, (0,1) is the hole
  p.place(0, 1, 0);
  p.deploy(0, 1, "monastery0");
  CHECK(p.score_of(0) == 9);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.s.figures.empty());
}

TEST_CASE("incomplete monasteries score 1 + 1 per surrounding tile at the end") {
  position p(2, {"BA/RFr"});
  p.tile(1, 0, "BA/RFr", 0).tile(0, 1, "BA/L", 0).tile(1, 1, "BA/L", 0);
  p.follower(0, 0, 1, "monastery0").follower(1, 1, 1, "monastery0");
  p.place(2, 0, 0);  // in the ring of (1,1) only
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 4);  // (0,1): (0,0), (1,0), (1,1)
  CHECK(p.score_of(1) == 5);  // (1,1): (0,0), (1,0), (2,0), (0,1)
}

TEST_CASE("a monastery left with no monk scores nothing, even when surrounded") {
  position p(2, {"BA/L", "BA/RFr"});
  ring_around_0_1(p, 1, 2);
  p.place(1, 2, 0);
  p.pass();
  CHECK(p.score_of(0) == 0);
  CHECK(p.score_of(1) == 0);
  CHECK(p.s.features.data(p.feature(0, 1, "monastery0")).scored);
}
