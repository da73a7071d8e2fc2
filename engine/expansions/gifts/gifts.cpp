// The Gifts: the deck (§2, G-9), receiving a card (§3, step 7), opening one (§4, step 4), Take 2's
// second tile (§4.5, steps 5 and 6c) and the end scoring (§5).
#include "gifts.hpp"

#include <algorithm>
#include <span>
#include <string>

#include "carcassonne/engine/scoring.hpp"
#include "carcassonne/engine/turn_steps.hpp"
#include "id.hpp"
#include "options.hpp"

namespace carcassonne::gifts {

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

// G-9: the top card, reshuffling the discard pile when the deck is empty; none when every card
// is in a hand. A scripted list names the card (checked to be drawable by precheck/setup).
bool draw_card(game_state& s, int seat, event_log* events) {
  auto& st = s.ext.get<gifts::state>();
  if (st.deck.empty()) {
    st.deck.swap(st.discard);
    if (!st.scripted) s.random.shuffle(std::span<std::uint8_t>(st.deck));
  }
  if (st.deck.empty()) return false;
  std::uint8_t c = st.deck.back();
  if (st.scripted) {
    if (st.script_next >= st.script.size()) return false;  // refused earlier by precheck
    c = st.script[st.script_next++];
    const auto it = std::find(st.deck.begin(), st.deck.end(), c);
    if (it == st.deck.end()) return false;  // refused earlier by precheck
    std::iter_swap(it, st.deck.end() - 1);
  }
  st.deck.pop_back();
  st.hands[seat].push_back(c);
  emit(events, event{.type = gifts::event_gift_received, .seat = static_cast<seat_t>(seat)});
  return true;
}

// A scripted card draw that cannot be made refuses the move that would make it.
status check_script(const game_state& s) {
  const auto& st = s.ext.get<gifts::state>();
  if (!st.scripted) return {};
  if (st.script_next >= st.script.size())
    return make_error(error_code::script_exhausted, "script.gifts has no draw left");
  const auto c = st.script[st.script_next];
  const auto& pile = st.deck.empty() ? st.discard : st.deck;
  if (std::find(pile.begin(), pile.end(), c) == pile.end())
    return make_error(error_code::bad_script,
                      "script.gifts: " + std::string(card_names[c]) + " cannot be drawn now");
  return {};
}

// §3: the new tile extended a road or city that belongs to someone else (owners after
// placement; the active seat not among them). G-1: gifts.receipt_owners.
bool earns_gift(const game_state& s) {
  const auto& pt = s.board.placed()[s.placed];
  const auto& t = tiles()[pt.type];
  const bool tiebreak = receipt_owners_option(s.options) == receipt_owners_rule::with_tiebreak;
  for (std::size_t i = 0; i < t.segments.size(); ++i) {
    const auto kind = t.segments[i].kind;
    if (kind != feature_kind::road && kind != feature_kind::city) continue;
    const auto root = s.features.root(static_cast<segment_t>(pt.first_segment + i));
    bool extended = false;  // a member on an earlier tile
    s.features.for_each_member(
        root, [&](segment_t m) { extended |= s.features.node(m).tile != s.placed; });
    if (!extended) continue;
    const auto who = tiebreak ? owners(s, root) : majority(s, root);
    if (who != 0 && !(who >> s.active & 1)) return true;
  }
  return false;
}

// Would this move draw a card that a scripted list cannot give? Only a placement earns one: it
// is tried on a copy (scripted games only: tests and puzzles) so that a refusal changes nothing.
status precheck(const game_state& s, const move& m) {
  if (!s.ext.get<gifts::state>().scripted || m.type != move_type::place_tile) return {};
  game_state trial = s;
  trial.placed = static_cast<std::int16_t>(turn_steps::join_tile(trial, m.at, s.drawn, m.rotation));
  if (!earns_gift(trial)) return {};
  return check_script(trial);
}

status setup(game_state& s, const game_setup& g) {
  auto& st = s.ext.get<gifts::state>();
  st.scripted_deck = g.script.deck.has_value();
  for (int c = 0; c < card_kinds; ++c)
    for (int i = 0; i < copies_per_card; ++i) st.deck.push_back(static_cast<std::uint8_t>(c));
  if (const auto it = g.script.draws.find("gifts"); it != g.script.draws.end()) {
    st.scripted = true;
    for (const auto& name : it->second) {
      const auto k = std::find(card_names.begin(), card_names.end(), name);
      if (k == card_names.end())
        return make_error(error_code::bad_script, "script.gifts: unknown card '" + name + "'");
      st.script.push_back(static_cast<std::uint8_t>(k - card_names.begin()));
    }
  } else {
    s.random.shuffle(std::span<std::uint8_t>(st.deck));
  }
  return {};
}

// Steps 6c and 7: the Take 2 tile not chosen goes back into the supply (after a hill took its
// tile), then the gift for extending someone else's road or city.
void tile_placed(game_state& s, event_log* events) {
  auto& st = s.ext.get<gifts::state>();
  if (st.extra >= 0) {
    // The leftover leaves the drawn part of the supply and goes back at a uniformly random
    // position among the tiles still to draw (the bottom of a scripted deck, game-record.md).
    const auto leftover = static_cast<tile_type_id>(st.extra);
    const auto from = st.extra_index;
    s.supply.erase(s.supply.begin() + from);
    --s.next_draw;
    const auto left = static_cast<std::uint64_t>(s.tiles_left());
    const auto at = s.next_draw + (st.scripted_deck ? left : s.random.below(left + 1));
    s.supply.insert(s.supply.begin() + static_cast<std::ptrdiff_t>(at), leftover);
    st.extra = -1;
  }
  st.opened = false;  // the next gift can be opened next turn
  if (earns_gift(s)) draw_card(s, s.active, events);
}

bool apply_move(game_state& s, const move& m, event_log* events) {
  auto& st = s.ext.get<gifts::state>();
  if (m.type == gifts::move_open_gift) {
    detail::open_card(s, m, events);
    if (s.awaiting == decision::none) s.awaiting = decision::place_tile;
    return true;
  }
  if (m.type != gifts::move_choose_tile) return false;
  if (m.choice == 1) {  // place the extra tile; the first one is the leftover
    const auto first = s.drawn;
    s.drawn = static_cast<tile_type_id>(st.extra);
    st.extra = first;
    std::swap(st.first_index, st.extra_index);
  }
  s.awaiting = decision::place_tile;
  return true;
}

void moves(const game_state& s, std::vector<move>& out) {
  if (s.awaiting == gifts::decision_choose_tile) {
    out.push_back(move{.type = gifts::move_choose_tile, .seat = s.active, .choice = 0});
    out.push_back(move{.type = gifts::move_choose_tile, .seat = s.active, .choice = 1});
    return;
  }
  if (s.awaiting == decision::place_tile && !s.ext.get<gifts::state>().opened)
    detail::card_moves(s, out);
}

// §5: 2 points per unopened card.
void final_scoring(game_state& s, event_log* events) {
  for (int seat = 0; seat < s.seats; ++seat) {
    const int n = static_cast<int>(s.ext.get<gifts::state>().hands[seat].size());
    if (n == 0) continue;
    s.players[seat].score += 2 * n;
    emit(events, event{.type = event_type::points,
                       .seat = static_cast<seat_t>(seat),
                       .final = true,
                       .points = 2 * n,
                       .value = static_cast<std::uint8_t>(gifts::reason_gifts)});
  }
}

int tiles_held(const game_state& s) {
  const auto& st = s.ext.get<gifts::state>();
  if (st.extra < 0) return 0;
  return s.awaiting == gifts::decision_choose_tile ? 2 : 1;  // both tiles, or the leftover
}

status check(const game_state& s) {
  const auto& st = s.ext.get<gifts::state>();
  std::array<int, card_kinds> n{};
  for (auto c : st.deck) ++n[c];
  for (auto c : st.discard) ++n[c];
  for (const auto& h : st.hands)
    for (auto c : h) ++n[c];
  for (int c = 0; c < card_kinds; ++c)
    if (n[c] != copies_per_card)
      return make_error(error_code::broken_invariant, "gift cards not conserved");
  return {};
}

}  // namespace

namespace detail {

// §4.5: draw until a placeable extra tile shows or the supply runs out; each draw is a draw
// (other expansions see it: a revolt tile revolts); unplaceable ones are discarded (G-7).
void draw_extra_tile(game_state& s, event_log* events) {
  auto& st = s.ext.get<gifts::state>();
  const auto first = s.drawn;
  st.first_index = static_cast<std::uint16_t>(s.next_draw - 1);
  while (s.tiles_left() > 0) {
    const auto index = s.next_draw;
    turn_steps::draw_from_supply(s, events,
                                 draw_kind::extra);  // a draw like any other: it may revolt
    const tile_type_id tile = s.drawn;
    if (s.board.placeable(tiles()[tile])) {
      st.extra = tile;
      st.extra_index = index;
      s.awaiting = gifts::decision_choose_tile;
      break;
    }
    s.discarded.push_back(tile);
    emit(events, event{.type = event_type::tile_discarded, .seat = s.active, .tile = tile});
  }
  s.drawn = first;
}

}  // namespace detail

constexpr std::array<event_type, 1> quiet_events{event_figure_moved};

const expansion_module module{
    .id = gifts::id,
    .name = "gifts",
    .label = "The Gifts",
    .options = options,
    .vocabulary = {.moves = move_names,
                   .events = event_names,
                   .decisions = decision_names,
                   .reasons = reason_names,
                   .figures = figure_names,
                   .quiet_events = quiet_events,
                   .tile_symbols = tile_symbols,
                   .script_keys = script_keys},
    .setup = setup,
    .tile_drawn = nullptr,
    .tile_placed = tile_placed,
    .extra_moves = moves,
    .extra_move_types = move_type_bits(gifts::move_open_gift, gifts::move_choose_tile),
    .precheck = precheck,
    .apply_move = apply_move,
    .final_scoring = final_scoring,
    .tiles_held = tiles_held,
    .check_invariants = check,
};

}  // namespace carcassonne::gifts
