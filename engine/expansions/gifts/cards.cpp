// The Gifts §4.1-4.5: which targets each card offers (every target validated by being generated)
// and what opening it does.
#include <algorithm>
#include <bit>

#include "carcassonne/engine/scoring.hpp"
#include "gifts.hpp"

namespace carcassonne::gifts::detail {

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

segment_t segment_at(const game_state& s, square_pos at, int local) {
  return static_cast<segment_t>(s.board.placed()[s.board.tile_at(at)].first_segment + local);
}

move gift_move(const game_state& s, card c, segment_t seg) {
  const auto& n = s.features.node(seg);
  return move{.type = gifts::move_open_gift,
              .seat = s.active,
              .at = s.board.placed()[n.tile].pos,
              .feature = n.local,
              .choice = static_cast<std::uint8_t>(c),
              .has_target = true};
}

// The targets of one card; the card alone when it has none (G-8: it is still opened).
void targets(const game_state& s, card c, std::vector<move>& out) {
  const auto first = out.size();
  const bool protection = protecting_module(s) != nullptr;  // Peasant Revolts in play
  const auto with_protection = [&](move m) {
    out.push_back(m);
    if (protection) {
      m.protect = true;
      out.push_back(m);
    }
  };
  switch (c) {
    case card::synod:  // §4.1, G-6: any incomplete monastery, with a follower in supply
      if (s.players[s.active].followers == 0) break;
      for (const auto& pt : s.board.placed()) {
        const int m = tiles()[pt.type].monastery;
        if (m < 0) continue;
        const auto seg = static_cast<segment_t>(pt.first_segment + m);
        if (!s.features.data(seg).scored) with_protection(gift_move(s, c, seg));
      }
      break;
    case card::road_sweeper:  // §4.2: any incomplete road, named by any of its segments
      for (std::size_t i = 0; i < s.features.size(); ++i) {
        const auto seg = static_cast<segment_t>(i);
        // A segment keeps its own kind, its feature's (only like kinds join): most are no road.
        if (s.features.data(seg).kind != feature_kind::road) continue;
        const auto& d = s.features.data(s.features.root(seg));
        if (d.kind == feature_kind::road && !d.scored) out.push_back(gift_move(s, c, seg));
      }
      break;
    case card::cash_out:  // §4.3: one of the seat's own followers
      for (const auto& f : s.figures)
        if (f.seat == s.active && f.type == figure_type::meeple) {
          const auto m = gift_move(s, c, f.segment);
          if (std::find(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), m) ==
              out.end())
            out.push_back(m);
        }
      break;
    case card::change_position:  // §4.4, G-5: field <-> road/city/monastery on the same tile
      for (const auto& f : s.figures) {
        if (f.seat != s.active || f.type != figure_type::meeple) continue;
        const auto& n = s.features.node(f.segment);
        const auto& pt = s.board.placed()[n.tile];
        const auto& t = tiles()[pt.type];
        const bool farmer = t.segments[n.local].kind == feature_kind::field;
        for (std::size_t j = 0; j < t.segments.size(); ++j) {
          const bool to_field = t.segments[j].kind == feature_kind::field;
          const auto target = static_cast<segment_t>(pt.first_segment + j);
          if (to_field == farmer || s.features.data(s.features.root(target)).scored) continue;
          auto m = gift_move(s, c, f.segment);
          m.to = static_cast<std::uint8_t>(j);
          if (std::find(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), m) !=
              out.end())
            continue;
          if (to_field || f.mark != 0)  // a protected follower
            out.push_back(m);           // keeps its mark
          else
            with_protection(m);
        }
      }
      break;
    case card::take_two:
      break;
  }
  if (out.size() == first)
    out.push_back(move{
        .type = gifts::move_open_gift, .seat = s.active, .choice = static_cast<std::uint8_t>(c)});
}

}  // namespace

void card_moves(const game_state& s, std::vector<move>& out) {
  // The distinct cards held, in card order: a bit per card kind (no copy of the hand to sort).
  unsigned held = 0;
  for (auto c : s.ext.get<gifts::state>().hands[s.active]) held |= 1u << c;
  for (; held != 0; held &= held - 1) targets(s, static_cast<card>(std::countr_zero(held)), out);
}

void open_card(game_state& s, const move& m, event_log* events) {
  auto& st = s.ext.get<gifts::state>();
  auto& hand = st.hands[m.seat];
  hand.erase(std::find(hand.begin(), hand.end(), m.choice));
  st.discard.push_back(m.choice);
  st.opened = true;
  emit(events, event{.type = gifts::event_gift_opened, .seat = m.seat, .value = m.choice});
  const auto c = static_cast<card>(m.choice);
  if (c == card::take_two) return draw_extra_tile(s, events);
  if (!m.has_target) return;  // G-8: no effect possible
  const auto seg = segment_at(s, m.at, m.feature);
  const auto root = s.features.root(seg);
  switch (c) {
    case card::synod: {
      s.figures.push_back(figure_on_board{m.seat, figure_type::meeple, seg});
      ++s.features.data(root).followers[m.seat];
      --s.players[m.seat].followers;
      emit(events, at_segment(s, seg,
                              event{.type = event_type::figure_deployed,
                                    .seat = m.seat,
                                    .figure = figure_type::meeple}));
      if (m.protect) protecting_module(s)->protect_figure(s, s.figures.size() - 1, 4, events);
      break;
    }
    case card::road_sweeper:  // G-3: scored as at the end, then every follower goes home
      award(s, root, owners(s, root), feature_value(s, root, true), false, events);
      return_followers(s, root, events);
      break;
    case card::cash_out: {  // G-4: 2 per follower on the feature, the one taken back included
      const int points = 2 * s.features.data(root).follower_total();
      s.players[m.seat].score += points;
      emit(events, at_segment(s, seg,
                              event{.type = event_type::points,
                                    .seat = m.seat,
                                    .points = points,
                                    .value = static_cast<std::uint8_t>(gifts::reason_cash_out)}));
      return_follower(s, static_cast<std::size_t>(find_figure(s, m.seat, figure_type::meeple, seg)),
                      events);
      break;
    }
    case card::change_position: {
      const int i = find_figure(s, m.seat, figure_type::meeple, seg);
      const auto to = segment_at(s, m.at, m.to);
      --s.features.data(root).followers[m.seat];
      ++s.features.data(s.features.root(to)).followers[m.seat];
      s.figures[i].segment = to;
      emit(events, at_segment(s, to,
                              event{.type = gifts::event_figure_moved,
                                    .seat = m.seat,
                                    .figure = figure_type::meeple,
                                    .value = m.feature}));
      if (m.protect)
        protecting_module(s)->protect_figure(s, static_cast<std::size_t>(i), 4, events);
      break;
    }
    case card::take_two:
      break;
  }
}

}  // namespace carcassonne::gifts::detail
