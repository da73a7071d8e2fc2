// Debug invariants, checked after every apply in debug builds and by the tests.
#include <string>

#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/game.hpp"
#include "geometry.hpp"

namespace carcassonne {

namespace {
error broken(std::string what) {
  return make_error(error_code::broken_invariant, std::move(what));
}
}  // namespace

status check_invariants(const game_state& s) {
  // Followers are conserved: supply + board = 7 per seat.
  std::array<int, max_seats> on_board{};
  for (const auto& f : s.figures)
    if (f.type == figure_type::meeple) ++on_board[f.seat];
  for (int seat = 0; seat < s.seats; ++seat)
    if (on_board[seat] + s.players[seat].followers != followers_per_seat)
      return broken("followers of seat " + std::to_string(seat) + " not conserved");

  // The base game's decisions are the active seat's; an expansion's may be another seat's.
  if (s.active >= s.seats || s.deciding >= s.seats) return broken("seat to act out of range");
  if ((s.awaiting == decision::place_tile || s.awaiting == decision::figure) &&
      s.deciding != s.active)
    return broken("a base decision awaited from a seat that is not active");

  // Every tile is accounted for: placed (less the start tile), discarded, or being placed.
  int drawn_unplaced = s.awaiting == decision::place_tile ? 1 : 0;
  for (const auto* m : active_modules(s))
    if (m->tiles_held) drawn_unplaced += m->tiles_held(s);
  const int left_supply = static_cast<int>(s.board.placed().size()) - 1 +
                          static_cast<int>(s.discarded.size()) +
                          static_cast<int>(s.out_of_play.size()) + drawn_unplaced;
  if (left_supply != s.next_draw) return broken("tiles not accounted for");

  // The graph's aggregates equal a recount from scratch.
  const auto& g = s.features;
  std::vector<int> open(g.size(), 0), size(g.size(), 0), pennants(g.size(), 0);
  std::vector<std::array<int, max_seats>> followers(g.size());
  std::vector<int> others(g.size(), 0);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto seg = static_cast<segment_t>(i);
    const auto& n = g.node(seg);
    const auto& pt = s.board.placed()[n.tile];
    const auto& def = tiles()[pt.type].segments[n.local];
    const auto r = g.root(seg);
    ++size[r];
    pennants[r] += def.pennants;
    auto neighbour_empty = [&](int abs_edge) {
      return s.board.tile_at(detail::neighbour(pt.pos, abs_edge)) < 0;
    };
    for (int e = 0; e < 4; ++e)
      if (def.edges >> e & 1) open[r] += neighbour_empty(rotate_edge(e, pt.rotation));
    for (int h = 0; h < 8; ++h)
      if (def.halves >> h & 1) open[r] += neighbour_empty(((h + 2 * pt.rotation) & 7) / 2);
  }
  for (const auto& f : s.figures) {
    if (f.type == figure_type::meeple)
      ++followers[g.root(f.segment)][f.seat];
    else
      ++others[g.root(f.segment)];
  }
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (g.root(static_cast<segment_t>(i)) != i) continue;
    const auto& d = g.data(static_cast<segment_t>(i));
    if (d.size != size[i]) return broken("feature size mismatch at " + std::to_string(i));
    if (d.pennants != pennants[i]) return broken("pennant count mismatch");
    if (d.kind != feature_kind::monastery && d.open != open[i])
      return broken("open port count mismatch at segment " + std::to_string(i));
    for (int seat = 0; seat < max_seats; ++seat)
      if (d.followers[seat] != followers[i][seat]) return broken("follower count mismatch");
    if (d.other_figures != others[i]) return broken("other figure count mismatch");
    int members = 0;
    g.for_each_member(static_cast<segment_t>(i), [&](segment_t) { ++members; });
    if (members != d.size) return broken("member ring broken");
  }
  for (const auto* m : active_modules(s))
    if (m->check_invariants)
      if (auto st = m->check_invariants(s); !st) return st;
  return {};
}

}  // namespace carcassonne
