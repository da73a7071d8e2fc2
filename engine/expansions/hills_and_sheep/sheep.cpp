// Hills & Sheep §4: shepherds, the bag, flocks growing, gathered, lost to the wolf or scored
// when their field is closed.
#include <algorithm>
#include <string>

#include "carcassonne/engine/scoring.hpp"
#include "hills_and_sheep.hpp"
#include "options.hpp"

namespace carcassonne::hills_and_sheep {

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

bool on_board(const game_state& s, int seat) {
  return s.ext.get<hills_and_sheep::state>().on_board >> seat & 1;
}

// The field (root segment) of the seat's shepherd, which must be on the board.
segment_t shepherd_field(const game_state& s, int seat) {
  return s.features.root(s.ext.get<hills_and_sheep::state>().at[seat]);
}

// Shepherds are the only figures on fields that are not followers.
bool field_has_shepherd(const game_state& s, segment_t root) {
  return s.features.data(root).other_figures > 0;
}

// Whether a field of the new tile holds a shepherd: only then can a shepherd's field have been
// extended or closed this turn (a field changes only by joining a tile placed next to it).
bool new_tile_touches_shepherd(const game_state& s) {
  const auto& pt = s.board.placed()[s.placed];
  const auto& t = tiles()[pt.type];
  for (std::size_t k = 0; k < t.segments.size(); ++k)
    if (t.segments[k].kind == feature_kind::field &&
        field_has_shepherd(s, s.features.root(static_cast<segment_t>(pt.first_segment + k))))
      return true;
  return false;
}

// Draws one token (uniform over the bag, or the next scripted one; check_draw has made sure it
// can be drawn) and takes it out of the bag.
token draw(game_state& s, event_log* events) {
  auto& st = s.ext.get<hills_and_sheep::state>();
  int kind = 0;
  if (st.scripted) {
    kind = st.script[st.script_next++];
  } else {
    int total = 0;
    for (auto n : st.bag) total += n;
    auto r = static_cast<int>(s.random.below(static_cast<std::uint64_t>(total)));
    while (r >= st.bag[kind]) r -= st.bag[kind++];
  }
  emit(events, event{.type = hills_and_sheep::event_token_drawn,
                     .seat = s.active,
                     .points = pack_bag(st.bag),
                     .value = static_cast<std::uint8_t>(kind)});
  --st.bag[kind];
  return static_cast<token>(kind);
}

// Every shepherd on the field goes home and every token of its flock back into the bag (§4.2
// wolf, §4.4 after scoring); `type` says which (flock_lost or flock_scored, with its points).
void end_flock(game_state& s, segment_t root, event_type type, event_log* events) {
  auto& st = s.ext.get<hills_and_sheep::state>();
  std::uint8_t seats = 0;
  int sheep = 0;
  segment_t where = 0;
  for (const auto& f : s.figures) {
    if (f.type != hills_and_sheep::figure_shepherd || s.features.root(f.segment) != root) continue;
    if (seats == 0) where = f.segment;
    seats = static_cast<std::uint8_t>(seats | 1 << f.seat);
    for (int k = 0; k < token_kinds; ++k) sheep += sheep_on[k] * st.flock[f.seat][k];
  }
  // An ownerless flock on the field (Festival, "stays") has merged into this one.
  auto& lost = st.ownerless;
  for (auto it = lost.begin(); it != lost.end();) {
    if (s.features.root(it->at) != root) {
      ++it;
      continue;
    }
    for (int k = 0; k < token_kinds; ++k) {
      sheep += sheep_on[k] * it->tokens[k];
      st.bag[k] = static_cast<std::uint8_t>(st.bag[k] + it->tokens[k]);
    }
    it = lost.erase(it);
  }
  const int points = type == hills_and_sheep::event_flock_scored ? sheep : 0;
  emit(events, at_segment(s, where, event{.type = type, .owners = seats, .points = points}));
  for (int seat = 0; seat < max_seats; ++seat) {
    if (!(seats >> seat & 1)) continue;
    if (type ==
        hills_and_sheep::event_flock_scored) {  // H-9: each shepherd's player scores the full total
      s.players[seat].score += points;
      emit(events,
           at_segment(s, where,
                      event{.type = event_type::points,
                            .seat = static_cast<seat_t>(seat),
                            .points = points,
                            .value = static_cast<std::uint8_t>(hills_and_sheep::reason_flock)}));
    }
    for (int k = 0; k < token_kinds; ++k)
      st.bag[k] = static_cast<std::uint8_t>(st.bag[k] + st.flock[seat][k]);
    st.flock[seat] = {};
    st.on_board = static_cast<std::uint8_t>(st.on_board & ~(1 << seat));
  }
  s.features.data(root).other_figures = 0;  // every shepherd of the field leaves
  auto kept = s.figures.begin();
  for (const auto& f : s.figures) {
    if (f.type == hills_and_sheep::figure_shepherd && s.features.root(f.segment) == root)
      emit(
          events,
          at_segment(s, f.segment,
                     event{.type = event_type::figure_returned, .seat = f.seat, .figure = f.type}));
    else
      *kept++ = f;
  }
  s.figures.erase(kept, s.figures.end());
}

// §4.2 Grow or §4.1 the placement draw: a sheep joins the seat's flock; the wolf goes back into
// the bag and takes the whole flock of the field (§4.3) - at placement, that is just the shepherd.
void grow(game_state& s, int seat, event_log* events) {
  auto& st = s.ext.get<hills_and_sheep::state>();
  const token t = draw(s, events);
  if (t != token::wolf) {
    ++st.flock[seat][static_cast<int>(t)];
    return;
  }
  ++st.bag[static_cast<int>(token::wolf)];
  end_flock(s, shepherd_field(s, seat), hills_and_sheep::event_flock_lost, events);
}

// §4.5, step 10(ii): every flock on a closed field is scored at once (H-2 "score_immediately").
void score_closed_fields(game_state& s, event_log* events) {
  if (closed_field_option(s.options) != closed_field_rule::score_immediately) return;
  for (int seat = 0; seat < s.seats; ++seat) {  // a scored flock takes its other shepherds along
    if (!on_board(s, seat)) continue;
    const auto root = shepherd_field(s, seat);
    if (s.features.data(root).open == 0)
      end_flock(s, root, hills_and_sheep::event_flock_scored, events);
  }
}

// §4.2: the seat's shepherd was on the board before this turn's figure action and the new tile
// extended its field (a shepherd deployed this turn stands on the new tile: it does not count).
bool flock_extended(const game_state& s, int seat) {
  if (!on_board(s, seat)) return false;
  const auto seg = s.ext.get<hills_and_sheep::state>().at[seat];
  if (s.features.node(seg).tile == static_cast<std::uint16_t>(s.placed)) return false;
  const auto root = s.features.root(seg);
  const auto& pt = s.board.placed()[s.placed];
  const auto& t = tiles()[pt.type];
  for (std::size_t k = 0; k < t.segments.size(); ++k)
    if (t.segments[k].kind == feature_kind::field &&
        s.features.root(static_cast<segment_t>(pt.first_segment + k)) == root)
      return true;
  return false;
}

bool draws_token(const move& m) {
  return (m.type == move_type::deploy && m.figure == hills_and_sheep::figure_shepherd) ||
         (m.type == hills_and_sheep::move_flock && m.choice == 0);
}

}  // namespace

namespace detail {

void shepherd_moves(const game_state& s, std::vector<move>& out) {
  if (s.awaiting == hills_and_sheep::decision_flock) {
    out.push_back(move{.type = hills_and_sheep::move_flock, .seat = s.active, .choice = 0});
    out.push_back(move{.type = hills_and_sheep::move_flock, .seat = s.active, .choice = 1});
    return;
  }
  if (s.awaiting != decision::figure || on_board(s, s.active)) return;
  // §4.1: on a field of the new tile whose whole field holds no shepherd yet.
  const auto& pt = s.board.placed()[s.placed];
  const auto& t = tiles()[pt.type];
  for (std::size_t k = 0; k < t.segments.size(); ++k) {
    if (t.segments[k].kind != feature_kind::field) continue;
    if (field_has_shepherd(s, s.features.root(static_cast<segment_t>(pt.first_segment + k))))
      continue;
    out.push_back(move{.type = move_type::deploy,
                       .seat = s.active,
                       .at = pt.pos,
                       .figure = hills_and_sheep::figure_shepherd,
                       .feature = static_cast<std::uint8_t>(k)});
  }
}

// A scripted bag: the next entry must exist and be in the bag (game-record.md, "Script formats").
status check_draw(const game_state& s, const move& m) {
  const auto& st = s.ext.get<hills_and_sheep::state>();
  if (!draws_token(m) || !st.scripted) return {};
  if (st.script_next >= st.script.size())
    return make_error(error_code::script_exhausted, "script.sheep has no draw left");
  const int kind = st.script[st.script_next];
  if (st.bag[kind] == 0)
    return make_error(error_code::bad_script,
                      "script.sheep draw " + std::to_string(st.script_next) + " (" +
                          std::string(token_names[kind]) + ") is not in the bag");
  return {};
}

bool apply_shepherd_move(game_state& s, const move& m, event_log* events) {
  if (m.type == move_type::deploy && m.figure == hills_and_sheep::figure_shepherd) {
    const auto& pt = s.board.placed()[s.placed];
    s.figures.push_back(figure_on_board{m.seat, hills_and_sheep::figure_shepherd,
                                        static_cast<segment_t>(pt.first_segment + m.feature)});
    auto& st = s.ext.get<hills_and_sheep::state>();
    st.on_board = static_cast<std::uint8_t>(st.on_board | 1 << m.seat);
    s.deployed = static_cast<std::uint8_t>(s.deployed |
                                           1 << static_cast<int>(hills_and_sheep::figure_shepherd));
    st.at[m.seat] = s.figures.back().segment;
    ++s.features.data(s.features.root(st.at[m.seat])).other_figures;
    emit(events, event{.type = event_type::figure_deployed,
                       .seat = m.seat,
                       .tile = pt.type,
                       .at = pt.pos,
                       .feature = m.feature,
                       .kind = feature_kind::field,
                       .figure = hills_and_sheep::figure_shepherd});
    grow(s, m.seat, events);  // §4.1: the placement draw
    return true;
  }
  if (m.type != hills_and_sheep::move_flock) return false;
  if (m.choice == 0) {
    grow(s, m.seat, events);
  } else {
    end_flock(s, shepherd_field(s, m.seat), hills_and_sheep::event_flock_scored, events);
  }
  score_closed_fields(s, events);  // step 10(ii) after the choice (H-5)
  return true;
}

bool shepherd_step(game_state& s, turn_step step, event_log* events) {
  if (step != turn_step::s10_shepherd || !new_tile_touches_shepherd(s)) return false;  // 10 only
  if (flock_extended(s, s.active)) {  // 10(i), H-3: Grow or Gather is mandatory
    s.awaiting = hills_and_sheep::decision_flock;
    return true;
  }
  score_closed_fields(s, events);
  return false;
}

status check_sheep(const game_state& s) {
  const auto& st = s.ext.get<hills_and_sheep::state>();
  const auto broken = [](std::string what) {
    return make_error(error_code::broken_invariant, std::move(what));
  };
  for (int k = 0; k < token_kinds; ++k) {
    int n = st.bag[k];
    for (int seat = 0; seat < max_seats; ++seat) n += st.flock[seat][k];
    for (const auto& o : st.ownerless) n += o.tokens[k];
    if (n != tokens_in_box[k]) return broken("sheep tokens not conserved");
  }
  if (st.bag[static_cast<int>(token::wolf)] != tokens_in_box[static_cast<int>(token::wolf)])
    return broken("a wolf is missing from the bag");
  for (int seat = 0; seat < max_seats; ++seat) {
    int shepherds = 0;
    for (const auto& f : s.figures)
      if (f.type == hills_and_sheep::figure_shepherd && f.seat == seat) {
        ++shepherds;
        if (st.at[seat] != f.segment) return broken("shepherd position out of date");
      }
    int tokens = 0;
    for (auto n : st.flock[seat]) tokens += n;
    if (shepherds > 1) return broken("two shepherds of one seat");
    if ((st.on_board >> seat & 1) != shepherds) return broken("shepherd mask out of date");
    if ((shepherds == 1) != (tokens > 0)) return broken("a flock without its shepherd");
    if (seat >= s.seats && shepherds) return broken("shepherd of an empty seat");
  }
  return {};
}

}  // namespace detail

void return_shepherd(game_state& s, int seat, bool flock_stays, event_log* events) {
  auto& st = s.ext.get<hills_and_sheep::state>();
  const auto seg = st.at[seat];
  const auto root = s.features.root(seg);
  for (std::size_t i = 0; i < s.figures.size(); ++i)
    if (s.figures[i].type == hills_and_sheep::figure_shepherd && s.figures[i].seat == seat) {
      emit(events, at_segment(s, seg,
                              event{.type = event_type::figure_returned,
                                    .seat = static_cast<seat_t>(seat),
                                    .figure = hills_and_sheep::figure_shepherd}));
      s.figures.erase(s.figures.begin() + static_cast<std::ptrdiff_t>(i));
      --s.features.data(root).other_figures;
      break;
    }
  st.on_board = static_cast<std::uint8_t>(st.on_board & ~(1 << seat));
  const auto tokens = st.flock[seat];
  st.flock[seat] = {};
  for (int other = 0; other < s.seats; ++other)  // F-3: a shared flock stays with the others
    if (on_board(s, other) && shepherd_field(s, other) == root) {
      for (int k = 0; k < token_kinds; ++k)
        st.flock[other][k] = static_cast<std::uint8_t>(st.flock[other][k] + tokens[k]);
      return;
    }
  if (flock_stays) {  // ownerless on the field
    st.ownerless.push_back(ownerless_flock{seg, tokens});
    return;
  }
  for (int k = 0; k < token_kinds; ++k)
    st.bag[k] = static_cast<std::uint8_t>(st.bag[k] + tokens[k]);
}

std::vector<flock_info> flocks(const game_state& s) {
  std::vector<flock_info> out;
  std::vector<segment_t> roots;
  const auto& st = s.ext.get<hills_and_sheep::state>();
  for (std::size_t i = 0; i < s.figures.size(); ++i) {
    const auto& f = s.figures[i];
    if (f.type != hills_and_sheep::figure_shepherd) continue;
    const auto root = s.features.root(f.segment);
    auto it = std::find(roots.begin(), roots.end(), root);
    if (it == roots.end()) {
      roots.push_back(root);
      out.emplace_back();
      it = roots.end() - 1;
    }
    auto& fl = out[static_cast<std::size_t>(it - roots.begin())];
    if (fl.shepherds.empty()) fl.at = f.segment;
    fl.shepherds.push_back(static_cast<int>(i));
    for (int k = 0; k < token_kinds; ++k) {
      fl.tokens[k] = static_cast<std::uint8_t>(fl.tokens[k] + st.flock[f.seat][k]);
      fl.sheep += sheep_on[k] * st.flock[f.seat][k];
    }
  }
  for (const auto& o : st.ownerless) {
    const auto root = s.features.root(o.at);
    auto it = std::find(roots.begin(), roots.end(), root);
    if (it == roots.end()) {
      roots.push_back(root);
      out.emplace_back();
      out.back().at = o.at;
      it = roots.end() - 1;
    }
    auto& fl = out[static_cast<std::size_t>(it - roots.begin())];
    for (int k = 0; k < token_kinds; ++k) {
      fl.tokens[k] = static_cast<std::uint8_t>(fl.tokens[k] + o.tokens[k]);
      fl.sheep += sheep_on[k] * o.tokens[k];
    }
  }
  return out;
}

std::int32_t pack_bag(const token_counts& bag) {
  std::int32_t packed = 0;
  for (int k = 0; k < token_kinds; ++k) packed |= static_cast<std::int32_t>(bag[k]) << (4 * k);
  return packed;
}

token_counts bag_before(const event& token_drawn) {
  token_counts bag{};
  for (int k = 0; k < token_kinds; ++k)
    bag[k] = static_cast<std::uint8_t>(token_drawn.points >> (4 * k) & 0xF);
  return bag;
}

int bag_size(const game_state& s) {
  int n = 0;
  for (auto k : s.ext.get<hills_and_sheep::state>().bag) n += k;
  return n;
}

bool shepherd_in_supply(const game_state& s, int seat) {
  return !on_board(s, seat);
}

}  // namespace carcassonne::hills_and_sheep
