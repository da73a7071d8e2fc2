// Easter §4 nests surrounded by 8 tiles, eggs for the figures on a square, §6 egg points at the
// end of the game.
#include <algorithm>

#include "easter.hpp"
#include "geometry.hpp"
#include "options.hpp"

namespace carcassonne::easter::detail {

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

// E-7: every follower, and the shepherd with easter.shepherd_eggs = true (Hills & Sheep), is
// worth one egg to its owner; the bunny is no figure of the board.
bool lays_egg(const game_state& s, const figure_on_board& f) {
  return f.type == figure_type::meeple || shepherds_collect_eggs(s.options);
}

// Adds one egg per figure on the tile at each board index of `tiles` to `per_seat`.
template <class Indexes>
void count_figures(const game_state& s, const Indexes& tiles_at,
                   std::array<int, max_seats>& per_seat) {
  for (const auto& f : s.figures) {
    if (!lays_egg(s, f)) continue;
    const int t = s.features.node(f.segment).tile;
    if (std::find(tiles_at.begin(), tiles_at.end(), t) != tiles_at.end()) ++per_seat[f.seat];
  }
}

void give(game_state& s, int seat, int eggs, square_pos at, event_log* events) {
  if (eggs == 0) return;
  s.ext.get<easter::state>().eggs[seat] += eggs;
  emit(events, event{.type = easter::event_eggs_collected,
                     .seat = static_cast<seat_t>(seat),
                     .at = at,
                     .value = static_cast<std::uint8_t>(eggs)});
}

void give_all(game_state& s, const std::array<int, max_seats>& per_seat, square_pos at,
              event_log* events) {
  for (int seat = 0; seat < s.seats; ++seat) give(s, seat, per_seat[seat], at, events);
}

bool is_surrounded_nest(const game_state& s, int index) {
  const auto& pt = s.board.placed()[index];
  return pt.surrounding == 8 && tiles()[pt.type].has(easter::symbol_nest);  // the count first
}

void award(game_state& s, std::int32_t count, int points, event_log* events) {
  for (int seat = 0; seat < s.seats; ++seat) {
    if (s.ext.get<easter::state>().eggs[seat] != count) continue;
    s.players[seat].score += points;
    emit(events, event{.type = event_type::points,
                       .seat = static_cast<seat_t>(seat),
                       .final = true,
                       .points = points,
                       .value = static_cast<std::uint8_t>(easter::reason_eggs)});
  }
}

}  // namespace

// Step 6b: a nest becomes surrounded by this turn's tile when that tile is the nest itself or one
// of its 8 neighbours and the count of neighbours is now 8. The count only grows and reaches 8
// once, so each nest is noted (and scored) once.
void note_surrounded_nests(game_state& s) {
  auto& st = s.ext.get<easter::state>();
  const auto& pt = s.board.placed()[s.placed];
  const auto note = [&](int index) {
    if (index >= 0 && is_surrounded_nest(s, index))
      st.nests[st.nest_count++] = static_cast<std::int16_t>(index);
  };
  note(s.placed);
  for (const int index : s.board.tiles_around(pt.pos)) note(index);
}

// §4, step 12 (or 10a with easter.nest_timing = "during_scoring"): for each nest surrounded this
// turn, 2 eggs to the active seat, then 1 per figure on its 9 squares to the figures' owners.
void score_nests(game_state& s, event_log* events) {
  auto& st = s.ext.get<easter::state>();
  for (int n = 0; n < st.nest_count; ++n) {
    const auto& pt = s.board.placed()[st.nests[n]];
    emit(events, event{.type = easter::event_nest_scored, .seat = s.active, .at = pt.pos});
    give(s, s.active, 2, pt.pos, events);
    std::array<int, 9> area{};
    area[0] = st.nests[n];
    int k = 1;
    for (const auto q : carcassonne::detail::surrounding(pt.pos)) area[k++] = s.board.tile_at(q);
    std::array<int, max_seats> per_seat{};
    count_figures(s, area, per_seat);
    give_all(s, per_seat, pt.pos, events);
  }
  st.nest_count = 0;
}

// §5 eggs: the bunny landed on the tile at `tile_index`; 1 egg per figure there to its owner.
void collect_eggs(game_state& s, int tile_index, event_log* events) {
  std::array<int, max_seats> per_seat{};
  count_figures(s, std::array<int, 1>{tile_index}, per_seat);
  give_all(s, per_seat, s.board.placed()[tile_index].pos, events);
}

// §6 (README "End of game" 7): the most eggs 10 points, the second-highest count 5, every tied
// seat scoring its place; 0 eggs never score (E-6). easter.second_place = "competition": two or
// more seats tied for the most leave no second place. Original variant: 5 points only with 3 or
// more players.
void egg_points(game_state& s, event_log* events) {
  const auto& eggs = s.ext.get<easter::state>().eggs;
  std::int32_t first = 0, second = 0;
  int at_first = 0;
  for (int seat = 0; seat < s.seats; ++seat) first = std::max(first, eggs[seat]);
  if (first == 0) return;
  for (int seat = 0; seat < s.seats; ++seat) {
    if (eggs[seat] == first)
      ++at_first;
    else
      second = std::max(second, eggs[seat]);
  }
  award(s, first, 10, events);
  if (variant_option(s.options) == variant_rule::original && s.seats < 3) return;
  if (second_place_option(s.options) == second_place_rule::competition && at_first > 1) return;
  if (second > 0) award(s, second, 5, events);
}

}  // namespace carcassonne::easter::detail
