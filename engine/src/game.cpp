#include "carcassonne/engine/game.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "carcassonne/engine/expansion.hpp"
#include "forfeit_steps.hpp"
#include "registry.hpp"
#include "turn.hpp"

namespace carcassonne {

namespace {

// The sets in play, a bit per tile_set_id: base always, the others with the module that owns
// them (expansion_module::tile_set). Owners by set, as expansion bits, found once.
std::uint64_t sets_in_play(expansion_set in_play) {
  static const std::vector<std::uint8_t> owners = [] {
    std::vector<std::uint8_t> out(tiles().set_names().size(), 0);
    for (std::size_t i = 0; i < out.size(); ++i)
      for (const auto* m : all_modules())
        if (m && !m->tile_set.empty() && m->tile_set == tiles().set_names()[i])
          out[i] = static_cast<std::uint8_t>(out[i] | 1 << static_cast<int>(m->id));
    return out;
  }();
  std::uint64_t sets = 1ull << base_tile_set;
  for (std::size_t i = 0; i < owners.size(); ++i)
    if (owners[i] & in_play.bits()) sets |= 1ull << i;
  return sets;
}

// The rotations in a tile type's fit mask (tile_type::fitting: bit q, q quarter turns).
constexpr std::array<std::uint8_t, 16> rotations_in{0, 1, 1, 2, 1, 2, 2, 3,
                                                    1, 2, 2, 3, 2, 3, 3, 4};  // bits set

// Base rule 4.1, the placements of the drawn tile: open squares in board order, rotations in
// increasing order. Two passes over each block of squares: the fit of every square (one table
// lookup by its edge signature, kept by the board as neighbours land) without a branch, the
// squares that fit packed in order and their moves counted; then those moves, written field by
// field into space made in one step (a push_back per move cost more than the lookups).
void list_placements(const game_state& s, std::vector<move>& out) {
  const seat_t seat = s.deciding;
  const auto& t = tiles()[s.drawn];
  const auto& open = s.board.open();
  constexpr std::size_t block = 64;
  std::array<std::uint8_t, block> square{};  // the fitting squares of the block, in order
  std::array<std::uint8_t, block> fit{};     // and their rotations (bit q: q quarter turns)
  for (std::size_t from = 0; from < open.size(); from += block) {
    const std::size_t n = std::min(block, open.size() - from);
    std::size_t fitting = 0, count = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t f = t.fitting[open[from + i].requirement];
      square[fitting] = static_cast<std::uint8_t>(i);
      fit[fitting] = f;
      fitting += f != 0;
      count += rotations_in[f];
    }
    const std::size_t first = out.size();
    out.resize(first + count);
    move* next = out.data() + first;
    for (std::size_t k = 0; k < fitting; ++k) {
      const square_pos at = open[from + square[k]].pos;
      for (unsigned f = fit[k]; f != 0; f &= f - 1, ++next) {
        next->type = move_type::place_tile;
        next->seat = seat;
        next->at = at;
        next->rotation = static_cast<std::uint8_t>(std::countr_zero(f));
      }
    }
  }
}

// How many moves list_placements writes (the same lookups, nothing written).
std::size_t count_placements(const game_state& s) {
  const auto& t = tiles()[s.drawn];
  std::size_t count = 0;
  for (const auto& o : s.board.open()) count += rotations_in[t.fitting[o.requirement]];
  return count;
}

// The k-th move list_placements writes (k < count_placements(s)).
move nth_placement(const game_state& s, std::size_t k) {
  const auto& t = tiles()[s.drawn];
  for (const auto& o : s.board.open()) {
    unsigned f = t.fitting[o.requirement];
    const std::size_t n = rotations_in[f];
    if (k >= n) {
      k -= n;
      continue;
    }
    for (; k > 0; --k) f &= f - 1;  // drop the k lower rotations
    return move{.type = move_type::place_tile,
                .seat = s.deciding,
                .at = o.pos,
                .rotation = static_cast<std::uint8_t>(std::countr_zero(f))};
  }
  std::abort();  // unreachable: k is below the count
}

}  // namespace

result<game_state> new_game(const game_setup& setup, event_log* events) {
  if (setup.seats < min_seats || setup.seats > max_seats)
    return make_error(error_code::bad_seat_count, "a game has 2 to 6 seats");
  game_state s;
  s.seats = static_cast<std::uint8_t>(setup.seats);
  s.expansions = setup.expansions;
  s.options = setup.options;
  for (int e = 0; e < expansion_count; ++e)
    if (setup.expansions.has(static_cast<expansion>(e)) && !find_module(static_cast<expansion>(e)))
      return make_error(
          error_code::unsupported_expansion,
          std::string(expansion_name(static_cast<expansion>(e))) + " is not implemented yet");
  s.random = rng::from_string(setup.seed);

  const auto& cat = tiles();
  const auto sets = sets_in_play(s.expansions);
  if (setup.script.deck) {
    for (auto t : *setup.script.deck) {
      if (t >= cat.types().size()) return make_error(error_code::unknown_tile, "unknown tile");
      if (!(sets >> cat[t].set & 1))
        return make_error(error_code::tile_not_in_play,
                          cat[t].id + " belongs to a set not in play");
    }
    s.supply = *setup.script.deck;
  } else {
    // Supply order before the shuffle: sets, then tile types in catalogue order, each type
    // repeated by its count less the start tile (docs/randomness.md).
    for (std::size_t t = 0; t < cat.types().size(); ++t) {
      const auto& type = cat.types()[t];
      if (!(sets >> type.set & 1)) continue;
      for (int i = type.start; i < type.count; ++i)
        s.supply.push_back(static_cast<tile_type_id>(t));
    }
  }
  for (const auto* m : active_modules(s))
    if (m->setup)
      if (auto st = m->setup(s, setup); !st) return st.err();
  if (!setup.script.deck) s.random.shuffle(std::span<tile_type_id>(s.supply));

  detail::join_tile(s, {0, 0}, cat.start_tile(), 0);
  s.active = 0;
  detail::begin_turn(s, events);
  return s;
}

void legal_actions(const game_state& s, std::vector<move>& out) {
  out.clear();
  if (s.finished) return;
  const seat_t seat = s.deciding;
  switch (s.awaiting) {
    case decision::place_tile:
      list_placements(s, out);
      break;
    case decision::figure: {
      const auto& pt = s.board.placed()[s.placed];
      const int n = static_cast<int>(tiles()[pt.type].segments.size());
      for (int i = 0; i < n; ++i)
        if (detail::can_deploy(s, i))
          out.push_back(move{.type = move_type::deploy,
                             .seat = seat,
                             .at = pt.pos,
                             .feature = static_cast<std::uint8_t>(i)});
      break;
    }
    default:  // none, or an expansion's decision: its moves come from the module
      break;
  }
  detail::collect_extra_moves(s, out);
  if (s.awaiting == decision::figure) out.push_back(move{.type = move_type::pass, .seat = seat});
}

move random_legal_action(const game_state& s, rng& r, std::vector<move>& scratch) {
  if (s.awaiting != decision::place_tile) {
    legal_actions(s, scratch);
    return scratch[r.below(scratch.size())];
  }
  // legal_actions' order: the placements, then the expansions' moves (legal_actions above).
  scratch.clear();
  detail::collect_extra_moves(s, scratch);
  const std::size_t placements = count_placements(s);
  const auto k = static_cast<std::size_t>(r.below(placements + scratch.size()));
  return k < placements ? nth_placement(s, k) : scratch[k - placements];
}

std::vector<move> legal_actions(const game_state& s) {
  std::vector<move> out;
  legal_actions(s, out);
  return out;
}

namespace {

// A move already known legal: performed, then forfeits settled (and, in debug builds, the
// state's invariants checked).
void perform_checked(game_state& s, const move& m, event_log* events) {
  if (!s.forfeited) {  // no move forfeits a seat (forfeit.hpp does): nothing to settle after it
    detail::perform(s, m, events);
  } else {
    const auto scores = detail::scores_of(s);
    const std::size_t first_event = events ? events->size() : 0;
    detail::perform(s, m, events);
    detail::settle_forfeits(s, scores, events, first_event);
  }
#ifndef NDEBUG
  if (auto st = check_invariants(s); !st) {
    std::fprintf(stderr, "invariant broken: %s\n", st.err().message.c_str());
    std::abort();
  }
#endif
}

}  // namespace

status apply_in_place(game_state& s, const move& m, event_log* events) {
  // check_move runs the modules' prechecks too (what legality cannot show: scripted draws).
  if (auto st = detail::check_move(s, m); !st) return st;
  perform_checked(s, m, events);
  return {};
}

status apply_legal_in_place(game_state& s, const move& m, event_log* events) {
#ifndef NDEBUG
  if (auto st = detail::check_legal(s, m); !st) {
    std::fprintf(stderr, "apply_legal_in_place: not a legal move: %s\n", st.err().message.c_str());
    std::abort();
  }
#endif
  if (auto st = detail::run_prechecks(s, m); !st) return st;
  perform_checked(s, m, events);
  return {};
}

result<applied> apply(const game_state& s, const move& m) {
  applied out{s, {}};
  if (auto st = apply_in_place(out.state, m, &out.events); !st) return st.err();
  return out;
}

std::size_t state_bytes(const game_state& s) {
  return sizeof(game_state) + s.board.heap_bytes() + s.features.heap_bytes() +
         s.supply.capacity() * sizeof(tile_type_id) +
         s.figures.capacity() * sizeof(figure_on_board) +
         s.discarded.capacity() * sizeof(tile_type_id) +
         s.completed.capacity() * sizeof(segment_t) +
         s.out_of_play.capacity() * sizeof(tile_type_id) + s.ext.heap_bytes();
}

}  // namespace carcassonne
