// Roads (base.md §5): 1 point per distinct tile, completed or at game end; loops; junctions.
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

TEST_CASE("a road closed at a junction and at a monastery scores 1 per tile") {
  position p(2, {"BA/LR", "BA/RFr"});
  // (-1,0) junction: road0 (E) meets the start road; road1 (S) and road2 (W) are other roads.
  p.tile(-1, 0, "BA/RRR", 0).tile(1, 0, "BA/RFr", 0);
  p.follower(0, 1, 0, "road0").follower(1, -1, 0, "road1");
  CHECK(p.s.features.data(p.feature(0, 0, "road0")).open == 1);
  p.place(2, 0, 90);  // BA/LR: its road runs W and ends at the monastery
  p.pass();
  CHECK(p.score_of(0) == 4);  // (-1,0), (0,0), (1,0), (2,0)
  CHECK(p.score_of(1) == 0);  // the junction's south road is another road
  CHECK(p.supply_of(0) == 7);
  CHECK(p.supply_of(1) == 6);
  CHECK(p.s.features.data(p.feature(0, 0, "road0")).scored);
  CHECK_FALSE(p.s.features.data(p.feature(-1, 0, "road1")).scored);
  CHECK(p.feature(-1, 0, "road1") != p.feature(-1, 0, "road0"));
}

TEST_CASE("a road that closes into a loop of four curves is completed") {
  position p(2, {"BA/Rr", "BA/RFr"});
  // Loop of BA/Rr: (0,1) E+S, (1,1) W+S, (0,2) N+E, and the move adds (1,2) N+W.
  p.tile(0, 1, "BA/Rr", 270).tile(1, 1, "BA/Rr", 0).tile(0, 2, "BA/Rr", 180);
  p.follower(0, 0, 1, "road0");
  CHECK(p.s.features.data(p.feature(0, 1, "road0")).open == 2);
  p.place(1, 2, 90);
  p.pass();
  CHECK(p.score_of(0) == 4);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.s.features.data(p.feature(1, 2, "road0")).scored);
}

TEST_CASE("a road whose two ends meet at one junction counts the junction tile once (B-2)") {
  position p(2, {"BA/Rr", "BA/RFr"});
  // (0,1) junction BA/RRR: road0 leaves E, road1 leaves S; the curves lead one into the other.
  p.tile(0, 1, "BA/RRR", 0).tile(1, 1, "BA/Rr", 0).tile(1, 2, "BA/Rr", 90);
  p.follower(0, 1, 1, "road0");
  CHECK(p.feature(0, 1, "road0") != p.feature(0, 1, "road1"));
  p.place(0, 2, 180);  // curve N+E joins the junction's S road to (1,2)
  // Both junction roads are now one road of 5 segments on 4 squares.
  const auto road = p.feature(0, 1, "road0");
  CHECK(p.feature(0, 1, "road1") == road);
  CHECK(p.s.features.data(road).size == 5);
  CHECK(distinct_tiles(p.s, road) == 4);
  p.pass();
  CHECK(p.score_of(0) == 4);  // not 5
  CHECK(p.supply_of(0) == 7);
  // The junction's third road (W) stays a separate, open road.
  CHECK(p.feature(0, 1, "road2") != road);
  CHECK(p.s.features.data(p.feature(0, 1, "road2")).open == 1);
}

TEST_CASE("a figure-eight road through the two curves of FE/RrRr counts that tile once (B-2)") {
  position p(2, {"BA/Rr", "BA/RFr"});
  // T = FE/RrRr at (0,2): road0 N-W, road1 E-S. The loop runs T(E) (1,2) (1,1) (0,1) T(N-W)
  // (-1,2) (-1,3) (0,3) T(S-E): 7 squares, 8 road segments.
  p.tile(0, 1, "BA/Rr", 270).tile(1, 1, "BA/Rr", 0).tile(1, 2, "BA/Rr", 90);
  p.tile(0, 2, "FE/RrRr", 0).tile(-1, 2, "BA/Rr", 270).tile(-1, 3, "BA/Rr", 180);
  p.follower(0, 0, 1, "road0");
  // Already one road through T twice (the upper loop joins T's E and N ends), open at T's S
  // and at (-1,3) E: 7 segments on 6 squares.
  CHECK(p.feature(0, 2, "road0") == p.feature(0, 2, "road1"));
  CHECK(p.s.features.data(p.feature(0, 2, "road0")).size == 7);
  CHECK(p.s.features.data(p.feature(0, 2, "road0")).open == 2);
  p.place(0, 3, 90);  // curve W+N closes the loop
  const auto road = p.feature(0, 1, "road0");
  CHECK(p.feature(0, 2, "road0") == road);
  CHECK(p.feature(0, 2, "road1") == road);
  CHECK(p.s.features.data(road).size == 8);
  p.pass();
  CHECK(p.score_of(0) == 7);  // not 8
  CHECK(p.supply_of(0) == 7);
}

TEST_CASE("incomplete roads score 1 per tile at the end of the game") {
  position p(2, {"BA/RFr"});  // one tile left: the game ends after this turn
  p.tile(1, 0, "BA/RFr", 0).tile(0, 1, "BA/Rr", 0);
  p.follower(0, 1, 0, "road0").follower(1, 0, 1, "road0");
  p.place(2, 0, 0);  // Red extends the road to (0,0),(1,0),(2,0), still open at both ends
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 3);
  CHECK(p.score_of(1) == 1);  // the curve at (0,1), open S and W
}

TEST_CASE("an incomplete road shared 1-1 at the end scores for both, 2-1 only for the majority") {
  for (const bool second_red : {false, true}) {
    CAPTURE(second_red);
    position p(2, {"BA/RFr"});
    p.tile(1, 0, "BA/RFr", 0).tile(-1, 0, "BA/RFr", 0).tile(-2, 0, "BA/RFr", 0);
    p.follower(0, 1, 0, "road0").follower(1, -1, 0, "road0");
    if (second_red) p.follower(0, -2, 0, "road0");
    p.place(2, 0, 0);
    p.pass();
    REQUIRE(p.s.finished);
    CHECK(p.score_of(0) == 5);  // (-2,0) .. (2,0)
    CHECK(p.score_of(1) == (second_red ? 0 : 5));
  }
}
