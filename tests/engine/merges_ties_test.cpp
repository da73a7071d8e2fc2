// One tile joining several features (base.md §2 joining, §4.2 occupancy) and majorities with
// ties (§6): every owner scores the full value.
#include <algorithm>

#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

namespace {

// Three single-cap cities around the square (0,-1), each open only towards it, plus the start
// tile's cap: (-1,-1) cap E, (1,-1) cap W, (0,-2) cap S. BA/Cccc+ at (0,-1) joins all four.
// Support tiles: roads (-1,0), (1,0); BA/L at (-1,-2).
void four_caps(position& p) {
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0);
  p.tile(-1, -1, "BA/C", 90).tile(1, -1, "BA/C", 270);
  p.tile(-1, -2, "BA/L", 0).tile(0, -2, "BA/C", 180);
}

}  // namespace

TEST_CASE("three players tied 1-1-1 on a city joined by one tile all score the full value") {
  position p(3, {"BA/Cccc+", "BA/RFr"});
  four_caps(p);
  p.follower(0, -1, -1, "city0").follower(1, 1, -1, "city0").follower(2, 0, -2, "city0");
  CHECK(p.feature(-1, -1, "city0") != p.feature(1, -1, "city0"));
  // BA/Cccc+ has one segment, already occupied once joined: the figure step is skipped and the
  // city is scored in the same apply.
  p.place(0, -1, 0);
  CHECK(p.s.active == 1);
  CHECK(p.s.awaiting == decision::place_tile);
  // 5 tiles + 1 pennant: 2*5 + 2*1 = 12 for each owner.
  CHECK(p.score_of(0) == 12);
  CHECK(p.score_of(1) == 12);
  CHECK(p.score_of(2) == 12);
  for (int seat = 0; seat < 3; ++seat) CHECK(p.supply_of(seat) == 7);
}

TEST_CASE("a city joined 2-1: only the player with two knights scores") {
  position p(2, {"BA/Cccc+", "BA/RFr"});
  four_caps(p);
  p.follower(0, -1, -1, "city0").follower(1, 1, -1, "city0").follower(0, 0, -2, "city0");
  p.place(0, -1, 0);
  CHECK(p.score_of(0) == 12);
  CHECK(p.score_of(1) == 0);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.supply_of(1) == 7);  // the outvoted knight returns too
}

TEST_CASE("a 2-2 tie among two of three players: both score, the third's knight returns") {
  position p(3, {"BA/Cccc+", "BA/RFr"});
  four_caps(p);
  p.follower(0, -1, -1, "city0").follower(1, 1, -1, "city0").follower(2, 0, -2, "city0");
  p.follower(0, 0, 0, "city0").follower(1, 1, -1, "city0");  // second knights (joined earlier)
  p.place(0, -1, 0);
  CHECK(p.score_of(0) == 12);
  CHECK(p.score_of(1) == 12);
  CHECK(p.score_of(2) == 0);
  for (int seat = 0; seat < 3; ++seat) CHECK(p.supply_of(seat) == 7);
}

TEST_CASE("a crossroads closes three separate roads at once") {
  position p(2, {"BA/RRRR", "BA/RFr"});
  // R1 (-1,0) monastery end, (0,0), (1,0): open E. R2 (2,-1) BA/LR: road S from a monastery.
  // R3 (3,0) BA/LR: road W from a monastery. BA/L at (1,-1), (3,-1) connect the board.
  p.tile(-1, 0, "BA/LR", 270).tile(1, 0, "BA/RFr", 0).tile(1, -1, "BA/L", 0);
  p.tile(2, -1, "BA/LR", 0).tile(3, -1, "BA/L", 0).tile(3, 0, "BA/LR", 90);
  p.follower(0, 1, 0, "road0").follower(1, 2, -1, "road0").follower(0, 3, 0, "road0");
  p.place(2, 0, 0);  // BA/RRRR: roads N, E, W close R2, R3, R1; its S road stays open
  // The crossroads' roads stay separate features.
  CHECK(p.feature(2, 0, "road0") != p.feature(2, 0, "road1"));
  CHECK(p.feature(2, 0, "road3") == p.feature(0, 0, "road0"));
  p.pass();
  CHECK(p.score_of(0) == 6);  // R1: 4 tiles; R3: (3,0), (2,0) = 2
  CHECK(p.score_of(1) == 2);  // R2: (2,-1), (2,0)
  CHECK(p.supply_of(0) == 7);
  CHECK(p.supply_of(1) == 7);
  CHECK_FALSE(p.s.features.data(p.feature(2, 0, "road2")).scored);
}

TEST_CASE("a tile joining two occupied roads into one completed road: both owners score") {
  position p(2, {"BA/RFr", "BA/RFr"});
  // (-1,0) BA/LR closes the start road on the W; (2,0) BA/LR ends a road coming from the W,
  // reached through (0,-1), (1,-1), (2,-1). The gap (1,0) is the move.
  p.tile(-1, 0, "BA/LR", 270).tile(0, -1, "BA/C", 180).tile(1, -1, "BA/L", 0);
  p.tile(2, -1, "BA/L", 0).tile(2, 0, "BA/LR", 90);
  p.follower(1, 0, 0, "road0").follower(0, 2, 0, "road0");
  p.place(1, 0, 0);
  p.pass();
  CHECK(p.score_of(0) == 4);  // (-1,0), (0,0), (1,0), (2,0)
  CHECK(p.score_of(1) == 4);
}

TEST_CASE("a follower cannot go on a feature joined to a follower far away (feature_occupied)") {
  position p(2, {"BA/CFc.1", "BA/RFr"});
  p.tile(0, -1, "BA/Cc.1", 180);  // city S+E: the start city now runs to (0,-1)'s E side
  p.follower(1, 0, 0, "city0");   // Blue's knight on the start tile, two squares from the move
  p.place(1, -1, 0);              // W-E band: joins the city, open E
  CHECK(p.refused(p.deploy_move(1, -1, "city0")) == error_code::feature_occupied);
  for (const auto& m : legal_actions(p.s))
    CHECK_FALSE((m.type == move_type::deploy && m.feature == 0));
  p.deploy(1, -1, "field0");  // a free field of the same tile is fine
  CHECK(p.supply_of(0) == 6);
  CHECK(p.score_of(0) == 0);
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("a road follower can go on a road this tile completes: scored and back at once") {
  position p(2, {"BA/LR", "BA/RFr"});
  p.tile(-1, 0, "BA/LR", 270).tile(1, 0, "BA/RFr", 0);
  p.place(2, 0, 90);
  p.deploy(2, 0, "road0");
  CHECK(p.score_of(0) == 4);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.s.figures.empty());
}

TEST_CASE("one BA/CFC.2 completes two separate cities at once, each scored on its own") {
  position p(2, {"BA/CFC.2", "BA/RFr"});
  // (1,-2) cap S waits above (1,-1); (1,0) BA/RCr cap N waits below it.
  p.tile(0, -1, "BA/C", 180).tile(0, -2, "BA/L", 0).tile(1, -2, "BA/C", 180);
  p.tile(1, 0, "BA/RCr", 0);
  p.follower(0, 1, -2, "city0").follower(1, 1, 0, "city0");
  p.place(1, -1, 0);  // caps N and S; the field band between them is free
  CHECK(p.feature(1, -1, "city0") != p.feature(1, -1, "city1"));
  const auto e = p.pass();
  CHECK(std::count_if(e.begin(), e.end(), [](const event& x) {
          return x.type == event_type::feature_completed && x.points == 4;
        }) == 2);
  CHECK(p.score_of(0) == 4);
  CHECK(p.score_of(1) == 4);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.supply_of(1) == 7);
}
