// A move is a tiny value: what a seat does at a decision (shared/spec/game-record.md, "Moves").
// Features are tile-local segment indices here; the record layer converts ids.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "carcassonne/engine/types.hpp"

namespace carcassonne {

enum class move_type : std::uint8_t {
  place_tile,
  deploy,
  pass,
  flock,
  open_gift,
  choose_tile,
  protect,
  return_figure,
  bunny,
};
inline constexpr int move_type_count = 9;
inline constexpr std::array<std::string_view, move_type_count> move_type_names{
    "place_tile",  "deploy",  "pass",          "flock", "open_gift",
    "choose_tile", "protect", "return_figure", "bunny"};

enum class figure_type : std::uint8_t { meeple, shepherd };
inline constexpr std::array<std::string_view, 2> figure_type_names{"meeple", "shepherd"};

inline constexpr int max_bunny_hops = 3;

struct move {
  move_type type = move_type::pass;
  seat_t seat = 0;
  square_pos at;              // place_tile square; feature square of other moves
  std::uint8_t rotation = 0;  // quarter turns (records use degrees)
  figure_type figure = figure_type::meeple;
  std::uint8_t feature = 0;  // tile-local segment index at `at`
  std::uint8_t to = 0;       // change_position target segment
  std::uint8_t choice = 0;   // flock: 0 expand, 1 herd; open_gift: card; choose_tile: index
  bool protect = false;
  bool has_target = false;       // open_gift with a target
  std::uint8_t path_length = 0;  // bunny
  std::array<square_pos, max_bunny_hops> path{};

  friend bool operator==(const move&, const move&) = default;
};

}  // namespace carcassonne
