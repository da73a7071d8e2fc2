// A move is a tiny value: what a seat does at a decision (shared/spec/game-record.md, "Moves").
// Features are tile-local segment indices here; the record layer converts ids.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "carcassonne/engine/types.hpp"

namespace carcassonne {

// The base game's move types; each expansion's are constants in its folder
// (engine/expansions/<name>/vocabulary.hpp) with values the registry gives its slot.
enum class move_type : std::uint8_t { place_tile, deploy, pass };
inline constexpr std::array<std::string_view, 3> base_move_type_names{"place_tile", "deploy",
                                                                      "pass"};

// The base game's figure; an expansion's figures are its constants like its moves.
enum class figure_type : std::uint8_t { meeple };
inline constexpr std::array<std::string_view, 1> base_figure_type_names{"meeple"};

// Names of every module's values, as on the wire and in records (assembled from the modules by
// the registry); "unknown" for a value nobody owns, nullopt for a name nobody uses.
std::string_view move_type_name(move_type t);
std::optional<move_type> find_move_type(std::string_view name);
std::string_view figure_type_name(figure_type f);
std::optional<figure_type> find_figure_type(std::string_view name);

inline constexpr int max_bunny_hops = 3;  // the longest path a move carries (Easter's bunny)

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
