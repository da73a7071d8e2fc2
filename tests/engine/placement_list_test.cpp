// The placement list is read from what the board keeps up to date as tiles land (the open squares,
// each with the edge signature its neighbours require, and the catalogue's fit table by
// signature); here it is recomputed every turn of random games from the placed tiles alone and
// must be the same list, in the same order. random_legal_action, which counts the placements
// instead of listing them, must draw the move the list gives.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "geometry.hpp"

using namespace carcassonne;

namespace {

// The side of the placed tile at q that faces `abs_edge`, from the catalogue and its rotation.
std::optional<side_kind> side_at(const game_state& s, square_pos q, int abs_edge) {
  const int t = s.board.tile_at(q);
  if (t < 0) return std::nullopt;
  const auto& pt = s.board.placed()[t];
  return tiles()[pt.type].sides[(abs_edge - pt.rotation + 4) % 4];
}

// Whether the drawn tile turned q quarter turns matches every placed neighbour of `at` (and has
// one), tested side by side.
bool fits_by_sides(const game_state& s, square_pos at, int q) {
  const auto& t = tiles()[s.drawn];
  int neighbours = 0;
  for (int e = 0; e < 4; ++e) {
    const auto theirs = side_at(s, detail::neighbour(at, e), opposite_edge(e));
    if (!theirs) continue;
    ++neighbours;
    if (*theirs != t.sides[(e - q + 4) % 4]) return false;
  }
  return neighbours > 0;
}

// The squares next to a tile that hold none, by a scan of the whole board.
std::vector<square_pos> open_squares_by_scan(const game_state& s) {
  std::vector<square_pos> out;
  for (const auto& pt : s.board.placed())
    for (int e = 0; e < 4; ++e) {
      const auto q = detail::neighbour(pt.pos, e);
      if (s.board.tile_at(q) < 0) out.push_back(q);
    }
  const auto less = [](square_pos a, square_pos b) { return a.x != b.x ? a.x < b.x : a.y < b.y; };
  std::sort(out.begin(), out.end(), less);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void check_placements(const game_state& s, const std::vector<move>& listed) {
  // The board's open squares are exactly the empty squares beside a tile.
  std::vector<square_pos> open;
  for (const auto& sq : s.board.open()) open.push_back(sq.pos);
  std::sort(open.begin(), open.end(),
            [](square_pos a, square_pos b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  REQUIRE(open == open_squares_by_scan(s));
  // The placements, recomputed in the board's order of open squares and rotations.
  std::vector<move> expected;
  for (const auto& sq : s.board.open())
    for (int q = 0; q < 4; ++q)
      if (fits_by_sides(s, sq.pos, q))
        expected.push_back(move{.type = move_type::place_tile,
                                .seat = s.deciding,
                                .at = sq.pos,
                                .rotation = static_cast<std::uint8_t>(q)});
  // They come first; the expansions' moves (a gift card) follow them.
  const auto end = std::find_if(listed.begin(), listed.end(),
                                [](const move& m) { return m.type != move_type::place_tile; });
  CHECK(std::none_of(end, listed.end(),
                     [](const move& m) { return m.type == move_type::place_tile; }));
  REQUIRE(std::vector<move>(listed.begin(), end) == expected);
}

// The 8 tiles around the tile just placed, as the board reads them from its grid.
void check_tiles_around(const game_state& s) {
  const auto& pt = s.board.placed().back();
  const auto around = s.board.tiles_around(pt.pos);
  const auto squares = detail::surrounding(pt.pos);
  for (int k = 0; k < 8; ++k) CHECK(around[k] == s.board.tile_at(squares[k]));
}

void play(const std::string& expansions, int seats, const std::string& seed) {
  CAPTURE(expansions);
  CAPTURE(seed);
  game_setup setup;
  setup.seats = seats;
  setup.seed = seed;
  for (std::size_t from = 0; from < expansions.size();) {
    const auto to = std::min(expansions.find(',', from), expansions.size());
    const auto e = find_expansion(expansions.substr(from, to - from));
    REQUIRE(e.has_value());
    setup.expansions.add(*e);
    from = to + 1;
  }
  auto game = new_game(setup);
  REQUIRE(game.ok());
  game_state s = game.value();
  rng chooser = rng::from_string(seed + "/moves");
  std::vector<move> moves, scratch;
  int placements = 0;
  while (!s.finished) {
    legal_actions(s, moves);
    REQUIRE_FALSE(moves.empty());
    if (s.awaiting == decision::place_tile) {
      check_placements(s, moves);
      ++placements;
    }
    // The playouts' draw without the list: the same move, the generator left in the same state.
    rng drawing = chooser;
    const move drawn = random_legal_action(s, drawing, scratch);
    const move& chosen = moves[chooser.below(moves.size())];
    REQUIRE(drawn == chosen);
    REQUIRE(drawing == chooser);
    const auto placed = s.board.placed().size();
    REQUIRE(apply_in_place(s, chosen).ok());
    if (s.board.placed().size() > placed) check_tiles_around(s);
  }
  CHECK(placements > 40);  // a whole game was checked, not only its start
}

}  // namespace

TEST_CASE("the placement list equals the one recomputed from the placed tiles, every turn") {
  const std::vector<std::string> mixes{
      "",
      "hills_and_sheep",
      "gifts,festival",
      "peasant_revolts,easter",
      "hills_and_sheep,gifts,peasant_revolts,easter,festival",
  };
  for (std::size_t i = 0; i < mixes.size(); ++i)
    for (int game = 0; game < 3; ++game)
      play(mixes[i], 2 + game, "placements/" + std::to_string(i) + "/" + std::to_string(game));
}
