#include "carcassonne/engine/errors.hpp"

#include <array>

namespace carcassonne {

std::string_view code_name(error_code c) {
  static constexpr std::array<std::string_view, error_code_count> names{
      "bad_seat_count",      "unknown_expansion",  "unsupported_expansion",
      "unknown_option",      "bad_option_value",   "unknown_tile",
      "tile_not_in_play",    "bad_script",         "game_over",
      "not_your_turn",       "unexpected_move",    "bad_rotation",
      "square_not_open",     "tile_does_not_fit",  "wrong_tile",
      "unknown_feature",     "feature_occupied",   "feature_completed",
      "no_figure_available", "figure_not_allowed", "script_exhausted",
      "already_forfeited"};
  if (c == error_code::broken_invariant) return "broken_invariant";
  return names[static_cast<int>(c)];
}

}  // namespace carcassonne
