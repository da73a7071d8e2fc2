// The Peasant Revolts: setup (§2), the revolt on every draw of a revolt tile (§3), protection for
// 4 when deploying and for 2 in step 9 (§4).
#include "peasant_revolts.hpp"

#include <algorithm>
#include <string>

#include "carcassonne/engine/scoring.hpp"
#include "carcassonne/engine/turn_steps.hpp"
#include "id.hpp"
#include "options.hpp"

namespace carcassonne::peasant_revolts {

bool is_revolt_tile(tile_type_id t) {
  static const auto revolt_set = tiles().find_set(module.tile_set);
  return tiles()[t].set == revolt_set;
}

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

bool revolt_kind(feature_kind k) {
  return k == feature_kind::road || k == feature_kind::city || k == feature_kind::monastery;
}

feature_kind kind_of(const game_state& s, const figure_on_board& f) {
  return s.features.data(s.features.root(f.segment)).kind;
}

event at_figure(const game_state& s, const figure_on_board& f, event e) {
  return at_segment(s, f.segment, e);
}

// §4.3: protection is paid in points; scores may go below zero.
void pay(game_state& s, const figure_on_board& f, int points, event_log* events) {
  s.players[f.seat].score -= points;
  emit(events,
       at_figure(s, f,
                 event{.type = event_type::points,
                       .seat = f.seat,
                       .points = -points,
                       .value = static_cast<std::uint8_t>(peasant_revolts::reason_protection)}));
}

// §2: 3 of the 12 revolt tiles are set aside unseen; the other 9 stay in the supply (shuffled
// with it). Scripted: script.revolt_removed names them (with a scripted deck, only checked).
status setup(game_state& s, const game_setup& g) {
  auto& st = s.ext.get<peasant_revolts::state>();
  if (const auto it = g.script.draws.find("revolt_removed"); it != g.script.draws.end()) {
    if (it->second.size() != set_aside_count)
      return make_error(error_code::bad_script, "script.revolt_removed names exactly 3 tiles");
    for (const auto& id : it->second) {
      const auto t = tiles().find(id);
      if (!t || !is_revolt_tile(*t))
        return make_error(error_code::bad_script,
                          "script.revolt_removed: '" + id + "' is not a Peasant Revolts tile");
      if (std::find(st.set_aside.begin(), st.set_aside.end(), *t) != st.set_aside.end())
        return make_error(error_code::bad_script, "script.revolt_removed names '" + id + "' twice");
      st.set_aside.push_back(*t);
    }
  } else if (!g.script.deck) {
    // The revolt tiles in supply order (catalogue order), shuffled with the game's generator
    // before the supply is: the first three are set aside (docs/randomness.md).
    std::vector<std::uint8_t> revolt_tiles;
    for (auto t : s.supply)
      if (is_revolt_tile(t)) revolt_tiles.push_back(t);
    s.random.shuffle(std::span<std::uint8_t>(revolt_tiles));
    st.set_aside.assign(
        revolt_tiles.begin(),
        revolt_tiles.begin() + std::min<std::size_t>(set_aside_count, revolt_tiles.size()));
  }
  if (!g.script.deck)
    for (auto t : st.set_aside)
      if (auto it = std::find(s.supply.begin(), s.supply.end(), t); it != s.supply.end())
        s.supply.erase(it);
  return {};
}

// §3.2: from the seat who drew, each seat once: protected followers on K score 2 each and stay;
// unprotected ones on K all go home, which ends the revolt.
void revolt(game_state& s, draw_kind kind, event_log* events) {
  const auto& t = tiles()[s.drawn];
  if (!t.has(symbol_revolt_city) && !t.has(symbol_revolt_road) && !t.has(symbol_revolt_monastery))
    return;
  // a Take 2 extra draw revolts unless revolts.extra_draws_trigger is false.
  if (kind == draw_kind::extra && !extra_draws_revolt(s.options)) return;
  const auto k = t.has(symbol_revolt_city)   ? feature_kind::city
                 : t.has(symbol_revolt_road) ? feature_kind::road
                                             : feature_kind::monastery;
  emit(events, event{.type = peasant_revolts::event_revolt, .seat = s.active, .kind = k});
  for (int i = 0; i < s.seats; ++i) {
    const auto seat = static_cast<seat_t>((s.active + i) % s.seats);
    bool returned = false;
    for (const auto& f : s.figures)
      if (f.seat == seat && f.type == figure_type::meeple && is_protected(f) &&
          kind_of(s, f) == k) {
        s.players[seat].score += 2;
        emit(events,
             at_figure(s, f,
                       event{.type = event_type::points,
                             .seat = seat,
                             .points = 2,
                             .value = static_cast<std::uint8_t>(peasant_revolts::reason_revolt)}));
      }
    for (std::size_t j = 0; j < s.figures.size();) {
      const auto& f = s.figures[j];
      if (f.seat == seat && f.type == figure_type::meeple && !is_protected(f) &&
          kind_of(s, f) == k) {
        return_follower(s, j, events);
        returned = true;
      } else {
        ++j;
      }
    }
    if (returned) return;
  }
}

// §4.2 / R-1: protect-for-2 is open when no figure (or, with "no_follower_deployed", no
// follower) was deployed in step 8.
bool may_protect_for_2(const game_state& s) {
  const int blocking = protect_for_2_option(s.options) == protect_for_2_rule::no_figure_deployed
                           ? 0xFF
                           : 1 << static_cast<int>(figure_type::meeple);
  return (s.deployed & blocking) == 0;
}

bool protectable(const game_state& s, const figure_on_board& f) {
  return f.seat == s.active && f.type == figure_type::meeple && !is_protected(f) &&
         revolt_kind(kind_of(s, f));
}

move protect_move(const game_state& s, const figure_on_board& f) {
  const auto& n = s.features.node(f.segment);
  return move{.type = peasant_revolts::move_protect,
              .seat = f.seat,
              .at = s.board.placed()[n.tile].pos,
              .feature = n.local};
}

void protection_moves(const game_state& s, std::vector<move>& out) {
  if (s.awaiting == decision::figure) {  // §4.1: deploy and protect for 4
    const auto& pt = s.board.placed()[s.placed];
    const auto& t = tiles()[pt.type];
    for (std::size_t i = 0; i < t.segments.size(); ++i)
      if (revolt_kind(t.segments[i].kind) && turn_steps::can_deploy(s, static_cast<int>(i)))
        out.push_back(move{.type = move_type::deploy,
                           .seat = s.active,
                           .at = pt.pos,
                           .feature = static_cast<std::uint8_t>(i),
                           .protect = true});
  } else if (s.awaiting == peasant_revolts::decision_protect) {  // §4.2
    for (const auto& f : s.figures)
      if (protectable(s, f)) out.push_back(protect_move(s, f));
    out.push_back(move{.type = move_type::pass, .seat = s.active});
  }
}

bool apply_protection(game_state& s, const move& m, event_log* events) {
  if (m.type == move_type::deploy && m.protect) {
    turn_steps::deploy_follower(s, m, events);
    protect(s, s.figures.size() - 1, 4, events);
    return true;
  }
  if (m.type != peasant_revolts::move_protect) return false;
  for (auto& f : s.figures)
    if (protectable(s, f) && protect_move(s, f) == m) {
      f.mark |= protected_mark;
      pay(s, f, 2, events);
      break;
    }
  return true;
}

// Step 9: wait for protect-or-pass when the seat has something to protect.
bool protect_step(game_state& s, turn_step step, event_log*) {
  if (step != turn_step::s9_protect || !may_protect_for_2(s)) return false;
  if (std::none_of(s.figures.begin(), s.figures.end(),
                   [&](const figure_on_board& f) { return protectable(s, f); }))
    return false;
  s.awaiting = peasant_revolts::decision_protect;
  return true;
}

status check(const game_state& s) {
  for (const auto& f : s.figures)
    // A protected follower moved into a field by Change Position keeps its mark (gifts.md §4.4).
    if (is_protected(f) && f.type != figure_type::meeple)
      return make_error(error_code::broken_invariant, "a protected figure that is not a follower");
  return {};
}

// A protection not offered now: in the protect step, that follower cannot be protected.
status refuse_move(const game_state& s, const move&) {
  if (s.awaiting != decision_protect) return {};
  return make_error(error_code::figure_not_allowed, "no follower of yours can be protected there");
}

}  // namespace

void protect(game_state& s, std::size_t index, int points, event_log* events) {
  s.figures[index].mark |= protected_mark;
  pay(s, s.figures[index], points, events);
}

namespace {
// The sibling hook (Gifts' Synod and Change Position): protects unless protected already.
void protect_figure(game_state& s, std::size_t index, int points, event_log* events) {
  if (!is_protected(s.figures[index])) protect(s, index, points, events);
}
}  // namespace

const expansion_module module{
    .id = peasant_revolts::id,
    .name = "peasant_revolts",
    .label = "The Peasant Revolts",
    .options = options,
    .tile_set = "peasant_revolts",
    .vocabulary = {.moves = move_names,
                   .events = event_names,
                   .decisions = decision_names,
                   .reasons = reason_names,
                   .figures = figure_names,
                   .tile_symbols = tile_symbols,
                   .script_keys = script_keys},
    .setup = setup,
    .tile_drawn = revolt,
    .extra_moves = protection_moves,
    .extra_move_types =
        move_type_bits(move_type::deploy, move_type::pass, peasant_revolts::move_protect),
    .refuse_move = refuse_move,
    .apply_move = apply_protection,
    .run_step = protect_step,
    .run_steps = 1 << static_cast<int>(turn_step::s9_protect),
    .protect_figure = protect_figure,
    .check_invariants = check,
};

}  // namespace carcassonne::peasant_revolts
