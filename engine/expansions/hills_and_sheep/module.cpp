// Hills & Sheep: setup and the module's hooks (the rules live in hills.cpp, sheep.cpp,
// vineyards.cpp).
#include <algorithm>
#include <string>

#include "hills_and_sheep.hpp"
#include "id.hpp"
#include "options.hpp"

namespace carcassonne::hills_and_sheep {

namespace {

// §2: all 18 tokens into the bag; setup.script.sheep fixes the draws.
status setup(game_state& s, const game_setup& g) {
  auto& st = s.ext.get<hills_and_sheep::state>();
  st.bag = tokens_in_box;
  const auto it = g.script.draws.find("sheep");
  if (it == g.script.draws.end()) return {};
  st.scripted = true;
  for (const auto& name : it->second) {
    const auto k = std::find(token_names.begin(), token_names.end(), name);
    if (k == token_names.end())
      return make_error(error_code::bad_script, "script.sheep: unknown token '" + name + "'");
    st.script.push_back(static_cast<std::uint8_t>(k - token_names.begin()));
  }
  return {};
}

status precheck(const game_state& s, const move& m) {
  return detail::check_draw(s, m);
}

// A shepherd taken back by another module's rule (the Festival's return).
void take_back_shepherd(game_state& s, std::size_t index, bool flock_stays, event_log* events) {
  return_shepherd(s, s.figures[index].seat, flock_stays, events);
}

}  // namespace

const expansion_module module{
    .id = hills_and_sheep::id,
    .name = "hills_and_sheep",
    .label = "Hills & Sheep",
    .options = options,
    .tile_set = "hills_and_sheep",
    .vocabulary = {.moves = move_names,
                   .events = event_names,
                   .decisions = decision_names,
                   .reasons = reason_names,
                   .figures = figure_names,
                   .tile_symbols = tile_symbols,
                   .script_keys = script_keys},
    .setup = setup,
    .tile_placed = detail::hide_tile_under_hill,
    .extra_moves = detail::shepherd_moves,
    .extra_move_types = move_type_bits(move_type::deploy, hills_and_sheep::move_flock),
    .precheck = precheck,
    .apply_move = detail::apply_shepherd_move,
    .run_step = detail::shepherd_step,
    .run_steps = 1 << static_cast<int>(turn_step::s10_shepherd),
    .narrow_owners = detail::hill_tiebreak,
    .completion_bonus = detail::vineyard_bonus,
    .take_back_figure = take_back_shepherd,
    .check_invariants = detail::check_sheep,
};

}  // namespace carcassonne::hills_and_sheep
