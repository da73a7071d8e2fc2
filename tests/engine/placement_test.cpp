// Tile placement (base.md §4.1): an empty square sharing a side with a placed tile, every shared
// side matching; legal_actions lists exactly those placements, and each of them applies.
#include <algorithm>
#include <tuple>

#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

namespace {

// Board: start, (1,0) BA/RFr, (1,-1) BA/L. The square (0,-1) needs city S and field E.
void small_board(position& p) {
  p.tile(1, 0, "BA/RFr", 0).tile(1, -1, "BA/L", 0);
}

// Side kind of the placed tile at p facing `abs_edge`, or nullopt for an empty square. Computed
// from the catalogue's sides and the rotation only (independent of the board's packed masks).
std::optional<side_kind> side_at(const game_state& s, int x, int y, int abs_edge) {
  const int t = s.board.tile_at({static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)});
  if (t < 0) return std::nullopt;
  const auto& pt = s.board.placed()[t];
  return tiles()[pt.type].sides[(abs_edge - pt.rotation + 4) % 4];
}

using spot = std::tuple<int, int, int>;  // x, y, quarter turns

// Every legal placement of the drawn tile by brute force over the squares near the board.
std::vector<spot> brute_force(const game_state& s) {
  int lo_x = 0, hi_x = 0, lo_y = 0, hi_y = 0;
  for (const auto& pt : s.board.placed()) {
    lo_x = std::min<int>(lo_x, pt.pos.x), hi_x = std::max<int>(hi_x, pt.pos.x);
    lo_y = std::min<int>(lo_y, pt.pos.y), hi_y = std::max<int>(hi_y, pt.pos.y);
  }
  const auto& t = tiles()[s.drawn];
  std::vector<spot> out;
  for (int x = lo_x - 2; x <= hi_x + 2; ++x)
    for (int y = lo_y - 2; y <= hi_y + 2; ++y) {
      if (s.board.tile_at({static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)}) >= 0)
        continue;
      for (int q = 0; q < 4; ++q) {
        int neighbours = 0;
        bool ok = true;
        for (int e = 0; e < 4; ++e) {
          const auto theirs = side_at(s, x + edge_dx[e], y + edge_dy[e], opposite_edge(e));
          if (!theirs) continue;
          ++neighbours;
          ok = ok && *theirs == t.sides[(e - q + 4) % 4];
        }
        if (neighbours > 0 && ok) out.emplace_back(x, y, q);
      }
    }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("placement errors: mismatching side, corner contact, occupied square, bad rotation") {
  position p(2, {"BA/Cc.1", "BA/RFr"});  // city corner N+W
  small_board(p);
  // (0,-1): @180 puts the city S (matches the start city) and E (against the field of BA/L).
  CHECK(p.refused(p.place_move(0, -1, 180)) == error_code::tile_does_not_fit);
  CHECK(p.refused(p.place_move(0, -1, 90)) == error_code::tile_does_not_fit);  // field S
  CHECK(p.refused(p.place_move(0, -1, 0)) == error_code::tile_does_not_fit);
  // Corner contact only: (-1,-1) touches (0,0) at a corner, (2,-2) touches (1,-1).
  CHECK(p.refused(p.place_move(-1, -1, 0)) == error_code::square_not_open);
  CHECK(p.refused(p.place_move(2, -2, 0)) == error_code::square_not_open);
  CHECK(p.refused(p.place_move(7, 7, 0)) == error_code::square_not_open);
  // Occupied squares.
  CHECK(p.refused(p.place_move(0, 0, 0)) == error_code::square_not_open);
  CHECK(p.refused(p.place_move(1, -1, 0)) == error_code::square_not_open);
  // Rotation index 4 (360 degrees) is not a rotation.
  auto m = p.place_move(0, -1, 270);
  m.rotation = 4;
  CHECK(p.refused(m) == error_code::bad_rotation);
  // @270: city W and S; S meets the start city, E is field against BA/L's field.
  p.place(0, -1, 270);
  CHECK(p.s.board.tile_at({0, -1}) >= 0);
  CHECK(p.s.features.data(p.feature(0, 0, "city0")).open == 1);  // open W at (0,-1)
}

TEST_CASE("legal_actions lists exactly the matching placements, and each one applies") {
  for (const auto& t : tiles().types()) {
    if (t.set != base_tile_set) continue;
    CAPTURE(t.id);
    position p(2, {t.id, "BA/RFr"});
    small_board(p);
    p.tile(0, 1, "BA/Rr", 0);  // a third side kind to the south
    std::vector<spot> listed;
    for (const auto& m : legal_actions(p.s)) {
      REQUIRE(m.type == move_type::place_tile);
      listed.emplace_back(m.at.x, m.at.y, m.rotation);
    }
    std::sort(listed.begin(), listed.end());
    CHECK(listed == brute_force(p.s));
    // Only the all-city tile has no square here (no open square asks for city on every side).
    CHECK(listed.empty() == (t.id == "BA/Cccc+"));
    for (const auto& m : legal_actions(p.s)) {
      auto r = apply(p.s, m);
      REQUIRE(r.ok());
      const int i = r->state.board.tile_at(m.at);
      REQUIRE(i >= 0);
      CHECK(r->state.board.placed()[i].type == p.s.drawn);
      CHECK(r->state.board.placed()[i].rotation == m.rotation);
    }
  }
}

TEST_CASE("every legal figure move applies; moves it does not list are refused") {
  position p(2, {"BA/CRRR", "BA/RFr"});  // city N, three roads to a junction, three fields
  p.place(0, -1, 180);                   // city S meets the start city; roads N, E, W
  const auto moves = legal_actions(p.s);
  // city0 (completed by this tile), road0..2, field0..2, and pass.
  CHECK(moves.size() == 8);
  for (const auto& m : moves) {
    auto r = apply(p.s, m);
    CHECK(r.ok());
  }
  // check_move accepts each of the 7 segments, as the list says.
  for (int i = 0; i < 7; ++i) {
    move m{.type = move_type::deploy,
           .seat = 0,
           .at = {0, -1},
           .feature = static_cast<std::uint8_t>(i)};
    CHECK(detail::check_move(p.s, m).ok());
  }
}
