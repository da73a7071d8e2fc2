// The Festival §3: the figure action of a festival tile may return one of the seat's own figures
// (F-2: instead of deploying), which scores nothing (F-4). The shepherd's flock is Hills & Sheep's
// business (§4): its module takes the shepherd back.
#include "festival.hpp"

#include <algorithm>

#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/scoring.hpp"
#include "id.hpp"
#include "options.hpp"

namespace carcassonne::festival {

namespace {

move return_move(const game_state& s, const figure_on_board& f) {
  const auto& n = s.features.node(f.segment);
  return move{.type = festival::move_return_figure,
              .seat = f.seat,
              .at = s.board.placed()[n.tile].pos,
              .figure = f.type,
              .feature = n.local};
}

// F-1: festival.return_scope "any_figure" (followers and the shepherd) or "followers_only".
bool returnable(const game_state& s, const figure_on_board& f) {
  if (f.seat != s.active) return false;
  return f.type == figure_type::meeple ||
         return_scope_option(s.options) == return_scope_rule::any_figure;
}

void return_moves(const game_state& s, std::vector<move>& out) {
  if (s.awaiting != decision::figure) return;
  if (!tiles()[s.board.placed()[s.placed].type].has(festival::symbol_festival)) return;
  const auto first = out.size();
  for (const auto& f : s.figures) {
    if (!returnable(s, f)) continue;
    const auto m = return_move(s, f);
    if (std::find(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), m) == out.end())
      out.push_back(m);
  }
}

bool apply_return(game_state& s, const move& m, event_log* events) {
  if (m.type != festival::move_return_figure) return false;
  const auto seg =
      static_cast<segment_t>(s.board.placed()[s.board.tile_at(m.at)].first_segment + m.feature);
  const int chosen = find_figure(s, m.seat, m.figure, seg);  // of several, an unprotected one
  if (chosen < 0) return true;  // unreachable: the move was generated from a figure on the board
  const auto index = static_cast<std::size_t>(chosen);
  if (m.figure == figure_type::meeple)
    return_follower(s, index, events);
  else  // another module's figure (the shepherd): its module takes it back
    figure_owner(m.figure)->take_back_figure(
        s, index, shepherd_flock_option(s.options) == shepherd_flock_rule::stays, events);
  return true;
}

// A return not offered now: at the figure step, that figure cannot be taken back there.
status refuse_move(const game_state& s, const move&) {
  if (s.awaiting != decision::figure) return {};
  return make_error(error_code::figure_not_allowed,
                    "no figure of yours can be taken back there now");
}

}  // namespace

const expansion_module module{
    .id = festival::id,
    .name = "festival",
    .label = "The Festival",
    .options = options,
    .tile_set = "festival",
    .vocabulary = {.moves = move_names,
                   .events = event_names,
                   .decisions = decision_names,
                   .reasons = reason_names,
                   .figures = figure_names,
                   .tile_symbols = tile_symbols,
                   .script_keys = script_keys},
    .extra_moves = return_moves,
    .extra_move_types = move_type_bits(festival::move_return_figure),
    .refuse_move = refuse_move,
    .apply_move = apply_return,
};

}  // namespace carcassonne::festival
