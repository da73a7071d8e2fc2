// Easter §3 the bunny put on a tile (step 6b), §5 the bunny phase: every seat from the active one
// on rolls the die and moves the bunny that many hops over placed tiles, never onto a square it
// has visited in this phase; a seat whose go finds it stuck is skipped.
#include <algorithm>
#include <string>

#include "easter.hpp"
#include "geometry.hpp"
#include "options.hpp"

namespace carcassonne::easter::detail {

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

bool original_variant(const game_state& s) {
  return variant_option(s.options) == variant_rule::original;
}

void put_bunny(game_state& s, square_pos at, event_log* events) {
  auto& st = s.ext.get<easter::state>();
  st.bunny_on_board = true;
  st.bunny = at;
  emit(events, event{.type = easter::event_bunny_placed, .seat = s.active, .at = at});
}

// A square the bunny may hop onto next: it holds a tile and is neither visited in this phase
// nor on the path being built (E-3).
bool open_for_hop(const game_state& s, square_pos q, const square_pos* path, int length) {
  const auto& st = s.ext.get<easter::state>();
  if (s.board.tile_at(q) < 0) return false;
  const auto* v = st.visited.begin();
  if (std::find(v, v + st.visited_count, q) != v + st.visited_count) return false;
  return std::find(path, path + length, q) == path + length;
}

bool can_hop_from(const game_state& s, square_pos from, const square_pos* path, int length) {
  for (int e = 0; e < 4; ++e)
    if (open_for_hop(s, carcassonne::detail::neighbour(from, e), path, length)) return true;
  return false;
}

// Every legal path of the go (E-4): `roll` hops, or fewer when the bunny reaches a square with
// no legal hop left. Depth first, neighbours in edge order N, E, S, W.
void paths(const game_state& s, square_pos from, move& m, std::vector<move>& out) {
  const int roll = s.ext.get<easter::state>().roll;
  bool hopped = false;
  if (m.path_length < roll) {
    for (int e = 0; e < 4; ++e) {
      const auto q = carcassonne::detail::neighbour(from, e);
      if (!open_for_hop(s, q, m.path.data(), m.path_length)) continue;
      hopped = true;
      m.path[m.path_length++] = q;
      paths(s, q, m, out);
      m.path[--m.path_length] = square_pos{};
    }
  }
  if (!hopped && m.path_length > 0) out.push_back(m);
}

// The die of the current go (§1: uniform over 1-3), or the scripted roll; 2 without a die.
std::uint8_t roll_die(game_state& s, event_log* events) {
  auto& st = s.ext.get<easter::state>();
  if (hops_option(s.options) == hops_rule::fixed_2) return 2;  // E-8 "fixed_2": no die
  std::uint8_t roll = 1;
  if (!st.scripted) {
    roll = static_cast<std::uint8_t>(s.random.below(3) + 1);
  } else if (st.script_next < st.script.size()) {
    roll = st.script[st.script_next++];
  } else {
    st.trial_short = true;  // only in precheck's trial: the real move is refused before this
  }
  emit(events, event{.type = easter::event_die_rolled, .seat = st.go, .value = roll});
  return roll;
}

// Runs goes from the current one: each rolls; the first that can hop is awaited (the seat decides
// with its roll known); a go that cannot is skipped (§5.3). Returns false when the phase is over.
bool next_go(game_state& s, event_log* events) {
  auto& st = s.ext.get<easter::state>();
  while (st.goes_left > 0) {
    st.roll = roll_die(s, events);
    if (can_hop_from(s, st.bunny, nullptr, 0)) {
      s.awaiting = easter::decision_bunny;
      s.deciding = st.go;
      return true;
    }
    emit(events, event{.type = easter::event_bunny_stuck, .seat = st.go});
    --st.goes_left;
    st.go = static_cast<seat_t>((st.go + 1) % s.seats);
  }
  st.in_phase = false;
  st.roll = 0;
  st.visited_count = 0;
  st.visited = {};
  s.deciding = s.active;
  return false;
}

}  // namespace

// Step 6b (§3). HiG: a bunny tile takes the bunny. Original: a nest tile takes it (its new home);
// a bunny tile only while it is off the board. A bunny tile always makes a bunny phase due.
void bunny_tile_placed(game_state& s, event_log* events) {
  const auto& pt = s.board.placed()[s.placed];
  const auto& t = tiles()[pt.type];
  auto& st = s.ext.get<easter::state>();
  if (t.has(easter::symbol_bunny)) {
    st.phase_due = true;
    if (!original_variant(s) || !st.bunny_on_board) put_bunny(s, pt.pos, events);
  } else if (t.has(easter::symbol_nest) && original_variant(s)) {
    put_bunny(s, pt.pos, events);
  }
}

// §5: the phase of this turn's bunny tile (step 13, or 10a in the original variant). Every seat
// has one go, the active seat first; the bunny's square is visited from the start.
bool start_phase(game_state& s, event_log* events) {
  auto& st = s.ext.get<easter::state>();
  if (!st.phase_due) return false;
  st.phase_due = false;
  if (!st.bunny_on_board) return false;  // no bunny, no phase (cannot happen with these tiles)
  st.in_phase = true;
  st.go = s.active;
  st.goes_left = s.seats;
  st.visited = {};
  st.visited[0] = st.bunny;
  st.visited_count = 1;
  return next_go(s, events);
}

void bunny_moves(const game_state& s, std::vector<move>& out) {
  if (s.awaiting != easter::decision_bunny) return;
  move m{.type = easter::move_bunny, .seat = s.ext.get<easter::state>().go};
  paths(s, s.ext.get<easter::state>().bunny, m, out);
}

// A go (already checked against bunny_moves): each hop lands, is visited and gives eggs (E-5);
// then the next seat's go, or the rest of the turn.
bool apply_bunny_move(game_state& s, const move& m, event_log* events) {
  if (m.type != easter::move_bunny) return false;
  auto& st = s.ext.get<easter::state>();
  for (int i = 0; i < m.path_length; ++i) {
    st.bunny = m.path[i];
    st.visited[st.visited_count++] = m.path[i];
    emit(events, event{.type = easter::event_bunny_moved, .seat = m.seat, .at = m.path[i]});
    collect_eggs(s, s.board.tile_at(m.path[i]), events);
  }
  --st.goes_left;
  st.go = static_cast<seat_t>((st.go + 1) % s.seats);
  next_go(s, events);
  return true;
}

status check_bunny(const game_state& s) {
  const auto& st = s.ext.get<easter::state>();
  const auto broken = [](std::string what) {
    return make_error(error_code::broken_invariant, std::move(what));
  };
  if (st.bunny_on_board && s.board.tile_at(st.bunny) < 0)
    return broken("the bunny is off the tiles");
  if (!st.bunny_on_board && (st.in_phase || !(st.bunny == square_pos{})))
    return broken("a bunny phase without the bunny");
  if ((s.awaiting == easter::decision_bunny) != st.in_phase)
    return broken("bunny phase out of step");
  if (st.in_phase) {
    if (s.deciding != st.go) return broken("the bunny's go is not the deciding seat's");
    if (st.goes_left < 1 || st.goes_left > s.seats) return broken("bunny goes out of range");
    if (st.roll < 1 || st.roll > max_bunny_hops) return broken("bunny roll out of range");
    if (st.visited_count < 1 || !(st.visited[st.visited_count - 1] == st.bunny))
      return broken("the bunny is not on its last visited square");
    const auto* v = st.visited.begin();
    for (int i = 0; i < st.visited_count; ++i) {
      if (s.board.tile_at(v[i]) < 0) return broken("the bunny visited an empty square");
      if (std::find(v, v + i, v[i]) != v + i) return broken("the bunny visited a square twice");
    }
    if (!can_hop_from(s, st.bunny, nullptr, 0)) return broken("a stuck go awaited");
  } else if (st.visited_count != 0 || st.roll != 0) {
    return broken("bunny phase left over");
  }
  if (s.awaiting == decision::place_tile && (st.phase_due || st.nest_count != 0))
    return broken("Easter steps left over from the last turn");
  return {};
}

}  // namespace carcassonne::easter::detail
