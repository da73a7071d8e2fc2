// Easter: setup, the scripted dice, the turn steps and the module's hooks (the rules live in
// bunny.cpp and eggs.cpp).
#include <string>

#include "easter.hpp"
#include "id.hpp"
#include "options.hpp"

namespace carcassonne::easter {

namespace {

bool original_variant(const game_state& s) {
  return variant_option(s.options) == variant_rule::original;
}
bool nests_during_scoring(const game_state& s) {
  return nest_timing_option(s.options) == nest_timing_rule::during_scoring;
}

// §2: the bunny off the board, 0 eggs each; setup.script.dice fixes the rolls ("1", "2", "3").
status setup(game_state& s, const game_setup& g) {
  auto& st = s.ext.get<easter::state>();
  const auto it = g.script.draws.find("dice");
  if (it == g.script.draws.end()) return {};
  st.scripted = true;
  for (const auto& entry : it->second) {
    if (entry != "1" && entry != "2" && entry != "3")
      return make_error(error_code::bad_script, "script.dice: '" + entry + "' is not 1, 2 or 3");
    st.script.push_back(static_cast<std::uint8_t>(entry[0] - '0'));
  }
  return {};
}

// Step 6b: the bunny, and the nests this tile surrounds.
void tile_placed(game_state& s, event_log* events) {
  detail::bunny_tile_placed(s, events);
  detail::note_surrounded_nests(s);
}

// Step 10a: nests with easter.nest_timing = "during_scoring" (figures as they stood at the end of
// step 10, before step 11 returns any), then the original variant's bunny phase. Step 12: nests
// (default). Step 13: the HiG bunny phase.
bool run_step(game_state& s, turn_step step, event_log* events) {
  switch (step) {
    case turn_step::s10a_early_bunny:
      if (nests_during_scoring(s)) detail::score_nests(s, events);
      return original_variant(s) && detail::start_phase(s, events);
    case turn_step::s12_nests:
      if (!nests_during_scoring(s)) detail::score_nests(s, events);
      return false;
    case turn_step::s13_bunny:
      return !original_variant(s) && detail::start_phase(s, events);
    default:
      return false;
  }
}

// A scripted die roll past the end of script.dice refuses the move that needs it, also when the
// roll happens in an automatic step after the move (the first go of a phase is rolled in the
// apply of the move that ends the figure step; a go that finds the bunny stuck is rolled in the
// apply of the previous go's move). A move rolls at most once per go left in the phase (all
// seats' goes for a move before the phase starts); when the list holds fewer rolls than that,
// the move is tried on a copy of the state whose rolls past the end are only noted, and refused
// if the copy needed one. Nothing is rolled early, so a record may end just before a roll.
status precheck(const game_state& s, const move& m) {
  const auto& st = s.ext.get<easter::state>();
  if (!st.scripted || st.trial || hops_option(s.options) == hops_rule::fixed_2) return {};
  const int left = static_cast<int>(st.script.size()) - st.script_next;
  const int most = s.awaiting == easter::decision_bunny ? st.goes_left - 1 : s.seats;
  if (left >= most) return {};
  game_state trial = s;
  trial.ext.get<easter::state>().trial = true;
  if (!apply_in_place(trial, m).ok()) return {};  // unreachable: the move passed every check
  if (trial.ext.get<easter::state>().trial_short)
    return make_error(error_code::script_exhausted, "script.dice has no roll left");
  return {};
}

status check_invariants(const game_state& s) {
  const auto& st = s.ext.get<easter::state>();
  const auto broken = [](std::string what) {
    return make_error(error_code::broken_invariant, std::move(what));
  };
  for (int seat = 0; seat < max_seats; ++seat) {
    if (st.eggs[seat] < 0) return broken("negative eggs");
    if (seat >= s.seats && st.eggs[seat] != 0) return broken("eggs of an empty seat");
  }
  if (st.script_next > st.script.size()) return broken("script.dice read past its end");
  if (st.trial_short && !st.trial) return broken("a die rolled past the end of script.dice");
  if (st.nest_count > max_nests_per_turn) return broken("too many nests this turn");
  return detail::check_bunny(s);
}

}  // namespace

constexpr std::array<event_type, 1> quiet_events{event_bunny_placed};

const expansion_module module{
    .id = easter::id,
    .name = "easter",
    .label = "Easter in Carcassonne",
    .options = options,
    .tile_set = "easter",
    .vocabulary = {.moves = move_names,
                   .events = event_names,
                   .decisions = decision_names,
                   .reasons = reason_names,
                   .figures = figure_names,
                   .quiet_events = quiet_events,
                   .tile_symbols = tile_symbols,
                   .script_keys = script_keys},
    .setup = setup,
    .tile_placed = tile_placed,
    .extra_moves = detail::bunny_moves,
    .extra_move_types = move_type_bits(easter::move_bunny),
    .precheck = precheck,
    .apply_move = detail::apply_bunny_move,
    .run_step = run_step,
    .run_steps = 1 << static_cast<int>(turn_step::s10a_early_bunny) |
                 1 << static_cast<int>(turn_step::s12_nests) |
                 1 << static_cast<int>(turn_step::s13_bunny),
    .final_scoring = detail::egg_points,
    .check_invariants = check_invariants,
};

std::int32_t eggs(const game_state& s, int seat) {
  return s.ext.get<easter::state>().eggs[seat];
}

std::optional<square_pos> bunny(const game_state& s) {
  if (!s.ext.get<easter::state>().bunny_on_board) return std::nullopt;
  return s.ext.get<easter::state>().bunny;
}

std::optional<go_info> current_go(const game_state& s) {
  const auto& st = s.ext.get<easter::state>();
  if (s.awaiting != easter::decision_bunny || !st.in_phase) return std::nullopt;
  go_info out{st.go, st.roll, {}};
  out.visited.assign(st.visited.begin(), st.visited.begin() + st.visited_count);
  return out;
}

}  // namespace carcassonne::easter
