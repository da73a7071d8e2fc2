#include "turn.hpp"

#include <algorithm>
#include <string>

#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/engine/scoring.hpp"
#include "carcassonne/engine/turn_steps.hpp"
#include "forfeit_steps.hpp"
#include "geometry.hpp"

namespace carcassonne::detail {

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

// Base rule 2 "Joining across a border": cities join cities and roads join roads on a shared
// side (every segment on it with every facing one: this also joins HS/CC!.v's split city edge),
// and fields join half-edge to half-edge. Each joined port stops being open.
void join_side(game_state& s, const placed_tile& mine, int e, const placed_tile& theirs) {
  const auto& t = tiles()[mine.type];
  const auto& nt = tiles()[theirs.type];
  auto& g = s.features;
  const int local = unrotate_edge(e, mine.rotation);
  const int their_local = unrotate_edge(opposite_edge(e), theirs.rotation);
  if (t.sides[local] != side_kind::field) {  // city or road ports
    const auto& a = t.edge_segments[local];
    const auto& b = nt.edge_segments[their_local];
    int ports = 0;
    segment_t r = 0;
    for (auto i : a) {
      if (i < 0) continue;
      ++ports;
      for (auto j : b)
        if (j >= 0)
          r = g.unite(static_cast<segment_t>(mine.first_segment + i),
                      static_cast<segment_t>(theirs.first_segment + j));
    }
    for (auto j : b) ports += j >= 0;
    auto& d = g.data(g.root(r));
    d.open = static_cast<std::uint16_t>(d.open - ports);
  }
  if (t.sides[local] != side_kind::city) {  // the field halves on both sides of a road or field
    for (int k = 0; k < 2; ++k) {
      const int h = 2 * e + k;
      const int i = t.half_segment[unrotate_half(h, mine.rotation)];
      const int j = nt.half_segment[unrotate_half(facing_half(h), theirs.rotation)];
      const auto r = g.unite(static_cast<segment_t>(mine.first_segment + i),
                             static_cast<segment_t>(theirs.first_segment + j));
      g.data(r).open = static_cast<std::uint16_t>(g.data(r).open - 2);
    }
  }
}

void note_completed(game_state& s, segment_t root) {
  if (std::find(s.completed.begin(), s.completed.end(), root) == s.completed.end())
    s.completed.push_back(root);
}

// Roads and cities with no open port, monasteries with 8 neighbours, completed by this tile.
void find_completed(game_state& s, int index) {
  const auto& pt = s.board.placed()[index];
  const auto& t = tiles()[pt.type];
  for (std::size_t i = 0; i < t.segments.size(); ++i) {
    const auto kind = t.segments[i].kind;
    if (kind != feature_kind::road && kind != feature_kind::city) continue;
    const auto r = s.features.root(static_cast<segment_t>(pt.first_segment + i));
    if (s.features.data(r).open == 0) note_completed(s, r);
  }
  auto check_monastery = [&](const placed_tile& p) {
    if (p.surrounding != 8) return;  // the count first: most tiles need no catalogue lookup
    if (const int m = tiles()[p.type].monastery; m >= 0)
      note_completed(s, static_cast<segment_t>(p.first_segment + m));
  };
  check_monastery(pt);
  for (const int other : s.board.tiles_around(pt.pos))
    if (other >= 0) check_monastery(s.board.placed()[other]);
}

// Step 11: score what the tile completed.
void score_step(game_state& s, event_log* events) {
  for (auto root : s.completed) score_completed(s, root, events);
  s.completed.clear();
}

// Steps 9-14 from `from` on: each expansion's automatic step in order (stopping where one waits
// for a decision), the base game's scoring, then the next seat's turn.
void continue_turn(game_state& s, turn_step from, event_log* events) {
  const auto& modules = active_modules(s);
  for (auto step = from; step != turn_step::s14_end;
       step = static_cast<turn_step>(static_cast<int>(step) + 1)) {
    s.step = step;
    if (step == turn_step::s11_scoring) {
      score_step(s, events);
      continue;
    }
    const int bit = 1 << static_cast<int>(step);
    if (!(modules.run_steps & bit)) continue;
    for (const auto* x : modules)
      if ((x->run_steps & bit) && x->run_step(s, step, events)) return;
  }
  s.active = next_in_play(s, s.active);  // forfeited seats' turns are skipped
  if (s.forfeited && seats_in_play(s) <= 1) return end_game(s, events);  // forfeit.hpp
  begin_turn(s, events);
}

turn_step after(turn_step step) {
  return static_cast<turn_step>(static_cast<int>(step) + 1);
}

// Whether some expansion offers a move now: modules are asked in order until one does.
bool has_extra_moves(const game_state& s) {
  std::vector<move> extra;
  for (const auto* x : active_modules(s)) {
    if (x->extra_moves) x->extra_moves(s, extra);
    if (!extra.empty()) return true;
  }
  return false;
}

// Step 8: waits only when the seat has a real choice (game-record.md: no pass is recorded for a
// step whose only legal move would be pass).
void enter_figure_step(game_state& s, event_log* events) {
  const auto& t = tiles()[s.board.placed()[s.placed].type];
  s.step = turn_step::s8_figure;
  s.awaiting = decision::figure;
  bool choice = false;
  for (int i = 0; i < static_cast<int>(t.segments.size()) && !choice; ++i)
    choice = can_deploy(s, i);
  if (choice || has_extra_moves(s)) return;
  s.awaiting = decision::none;
  continue_turn(s, after(turn_step::s8_figure), events);
}

void place_drawn_tile(game_state& s, const move& m, event_log* events) {
  const int index = join_tile(s, m.at, s.drawn, m.rotation);
  s.placed = static_cast<std::int16_t>(index);
  emit(events, event{.type = event_type::tile_placed,
                     .seat = s.active,
                     .tile = s.drawn,
                     .at = m.at,
                     .rotation = m.rotation});
  find_completed(s, index);
  for (const auto* x : active_modules(s))
    if (x->tile_placed) x->tile_placed(s, events);
  enter_figure_step(s, events);
}

// An expansion's move: legal when generated (check_move then runs the modules' prechecks). A move
// of a kind the decision takes, but not listed (a bunny path that is not legal), is named so.
// Modules are asked in order and the search stops at the one that lists the move; `otherwise`
// makes the error for a move no module lists (built only then: it formats text). A module that
// never lists moves of this type is not asked: it could list neither the move nor one of its type.
template <class Otherwise>
status check_extra_move(const game_state& s, const move& m, Otherwise&& otherwise) {
  std::vector<move> extra;
  const unsigned type_bit = 1u << static_cast<unsigned>(m.type);
  for (const auto* x : active_modules(s)) {
    if (!x->extra_moves || (x->extra_move_types != 0 && !(x->extra_move_types & type_bit)))
      continue;
    const auto from = static_cast<std::ptrdiff_t>(extra.size());
    x->extra_moves(s, extra);
    if (std::find(extra.begin() + from, extra.end(), m) != extra.end()) return {};
  }
  const auto* owner = move_owner(m.type);  // a module that names its own refusal comes first
  const bool own_refusal = owner && owner->refuse_move;
  if (m.type != move_type::deploy && !own_refusal &&
      std::any_of(extra.begin(), extra.end(), [&](const move& x) { return x.type == m.type; }))
    return make_error(error_code::unexpected_move, "this " + std::string(move_type_name(m.type)) +
                                                       " move is not one of the legal moves now");
  if (own_refusal)
    if (auto st = owner->refuse_move(s, m); !st) return st;
  return otherwise();
}

}  // namespace

void deploy_follower(game_state& s, const move& m, event_log* events) {
  const auto& pt = s.board.placed()[s.placed];
  const auto seg = static_cast<segment_t>(pt.first_segment + m.feature);
  s.figures.push_back(figure_on_board{m.seat, figure_type::meeple, seg});
  ++s.features.data(s.features.root(seg)).followers[m.seat];
  --s.players[m.seat].followers;
  s.deployed = static_cast<std::uint8_t>(s.deployed | 1 << static_cast<int>(figure_type::meeple));
  emit(events, event{.type = event_type::figure_deployed,
                     .seat = m.seat,
                     .tile = pt.type,
                     .at = pt.pos,
                     .feature = m.feature,
                     .kind = tiles()[pt.type].segments[m.feature].kind,
                     .figure = figure_type::meeple});
}

void collect_extra_moves(const game_state& s, std::vector<move>& out) {
  for (const auto* x : active_modules(s))
    if (x->extra_moves) x->extra_moves(s, out);
}

int join_tile(game_state& s, square_pos p, tile_type_id type, int quarter_turns) {
  const auto index = static_cast<std::uint16_t>(s.board.placed().size());
  const auto first = s.features.add_tile(tiles()[type], index);
  s.board.place(p, type, quarter_turns, first);
  const placed_tile mine = s.board.placed()[index];
  // Edge e's neighbour is tiles_around[2e + 1] (clockwise from the north-west, N first at 1).
  const auto around = s.board.tiles_around(p);
  for (int e = 0; e < 4; ++e) {
    const int n = around[2 * e + 1];
    if (n >= 0) join_side(s, mine, e, s.board.placed()[n]);
  }
  return index;
}

void draw_from_supply(game_state& s, event_log* events, draw_kind kind) {
  const tile_type_id tile = s.supply[s.next_draw++];
  emit(events, event{.type = event_type::tile_drawn, .seat = s.active, .tile = tile});
  s.drawn = tile;
  for (const auto* x : active_modules(s))
    if (x->tile_drawn) x->tile_drawn(s, kind, events);
}

void begin_turn(game_state& s, event_log* events) {
  s.placed = -1;
  s.deployed = 0;
  s.completed.clear();
  s.awaiting = decision::none;
  s.deciding = s.active;
  if (s.tiles_left() == 0) return end_game(s, events);
  ++s.turn;
  emit(events, event{.type = event_type::turn_started, .seat = s.active});
  while (s.tiles_left() > 0) {
    draw_from_supply(s, events);
    const tile_type_id tile = s.drawn;
    if (s.board.placeable(tiles()[tile])) {
      s.awaiting = decision::place_tile;
      return;
    }
    // Base 4.1.4 / B-1: an unplaceable tile is discarded for good and the seat draws again.
    s.discarded.push_back(tile);
    emit(events, event{.type = event_type::tile_discarded, .seat = s.active, .tile = tile});
  }
  end_game(s, events);  // the supply ran out while redrawing: the turn ends without a tile
}

bool can_deploy(const game_state& s, int local_segment) {
  if (s.players[s.active].followers == 0) return false;
  const auto& pt = s.board.placed()[s.placed];
  const auto& d =
      s.features.data(s.features.root(static_cast<segment_t>(pt.first_segment + local_segment)));
  return d.follower_total() == 0 && !d.scored;
}

void end_game(game_state& s, event_log* events) {
  score_game_end(s, events);
  s.finished = true;
  s.awaiting = decision::none;
  emit(events, event{.type = event_type::game_finished});
}

status check_legal(const game_state& s, const move& m) {
  using ec = error_code;
  if (s.finished) return make_error(ec::game_over, "the game is over");
  if (m.seat != s.deciding)
    return make_error(ec::not_your_turn, "seat " + std::to_string(s.deciding) + " is to act");
  const auto unexpected = [&] {
    return make_error(ec::unexpected_move, std::string(move_type_name(m.type)) +
                                               " is not possible now: waiting for " +
                                               std::string(decision_name(s.awaiting)));
  };
  switch (m.type) {
    case move_type::place_tile: {
      if (s.awaiting != decision::place_tile) return unexpected();
      if (m.rotation > 3) return make_error(ec::bad_rotation, "rotation must be 0, 90, 180 or 270");
      const int o = s.board.open_at(m.at);
      if (o < 0)
        return make_error(ec::square_not_open, "square (" + std::to_string(m.at.x) + "," +
                                                   std::to_string(m.at.y) +
                                                   ") is taken or not next to a placed tile");
      if (!board::fits(s.board.open()[o], tiles()[s.drawn], m.rotation))
        return make_error(ec::tile_does_not_fit, "a side of the tile does not match its neighbour");
      return {};
    }
    case move_type::deploy: {
      if (s.awaiting != decision::figure) return unexpected();
      if (m.figure != figure_type::meeple || m.protect)
        return check_extra_move(s, m, [] {
          return make_error(ec::figure_not_allowed, "this figure or option is not in play here");
        });
      const auto& pt = s.board.placed()[s.placed];
      if (!(m.at == pt.pos))
        return make_error(ec::wrong_tile, "a follower goes on the tile just placed");
      if (m.feature >= tiles()[pt.type].segments.size())
        return make_error(ec::unknown_feature, "no such feature on this tile");
      if (s.players[m.seat].followers == 0)
        return make_error(ec::no_figure_available, "no follower left in supply");
      const auto& d =
          s.features.data(s.features.root(static_cast<segment_t>(pt.first_segment + m.feature)));
      if (d.scored) return make_error(ec::feature_completed, "the feature is already completed");
      if (d.follower_total() > 0)
        return make_error(ec::feature_occupied, "the feature already holds a follower");
      return {};
    }
    case move_type::pass:  // the figure step's, or an expansion's optional step
      if (s.awaiting != decision::figure) return check_extra_move(s, m, unexpected);
      return {};
    default:  // an expansion's move (its module may name why it is refused: refuse_move)
      return check_extra_move(s, m, unexpected);
  }
}

// Every module's precheck sees the move (whatever its kind: a base move may start an
// expansion's automatic step that needs a scripted draw).
status run_prechecks(const game_state& s, const move& m) {
  for (const auto* x : active_modules(s))
    if (x->precheck)
      if (auto st = x->precheck(s, m); !st) return st;
  return {};
}

status check_move(const game_state& s, const move& m) {
  if (auto st = check_legal(s, m); !st) return st;
  return run_prechecks(s, m);
}

void perform(game_state& s, const move& m, event_log* events) {
  switch (m.type) {
    case move_type::place_tile:
      return place_drawn_tile(s, m, events);
    case move_type::deploy:
      if (m.figure == figure_type::meeple && !m.protect) {
        deploy_follower(s, m, events);
        s.awaiting = decision::none;
        return continue_turn(s, after(s.step), events);
      }
      break;
    case move_type::pass:
      s.awaiting = decision::none;
      return continue_turn(s, after(s.step), events);
    default:
      break;
  }
  s.awaiting = decision::none;
  for (const auto* x : active_modules(s))
    if (x->apply_move && x->apply_move(s, m, events)) break;
  if (s.awaiting == decision::none) continue_turn(s, after(s.step), events);
}

}  // namespace carcassonne::detail

// turn_steps.hpp: the steps above that expansions run themselves.
namespace carcassonne::turn_steps {

int join_tile(game_state& s, square_pos p, tile_type_id type, int quarter_turns) {
  return detail::join_tile(s, p, type, quarter_turns);
}
void draw_from_supply(game_state& s, event_log* events, draw_kind kind) {
  detail::draw_from_supply(s, events, kind);
}
bool can_deploy(const game_state& s, int local_segment) {
  return detail::can_deploy(s, local_segment);
}
void deploy_follower(game_state& s, const move& m, event_log* events) {
  detail::deploy_follower(s, m, events);
}

}  // namespace carcassonne::turn_steps
