// Events: what an apply did, in order, for logs, views and clients ("Ann completed a city").
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "carcassonne/engine/moves.hpp"
#include "carcassonne/engine/tiles.hpp"
#include "carcassonne/engine/types.hpp"

namespace carcassonne {

enum class event_type : std::uint8_t {
  turn_started,       // seat
  tile_drawn,         // seat, tile
  tile_discarded,     // seat, tile (no legal placement)
  tile_placed,        // seat, tile, at, rotation
  figure_deployed,    // seat, figure, at, feature
  figure_returned,    // seat, figure, at, feature
  feature_completed,  // feature_kind, at, feature (a representative segment), points, owners
  points,             // seat, points, reason (feature_kind), at, feature; final = end-game scoring;
                      // value: points_reason (an expansion's reason may have no feature)
  game_finished,
};
inline constexpr std::array<std::string_view, 9> base_event_type_names{
    "turn_started",    "tile_drawn",        "tile_discarded", "tile_placed",  "figure_deployed",
    "figure_returned", "feature_completed", "points",         "game_finished"};
// Each expansion's events are constants in its folder (engine/expansions/<name>/vocabulary.hpp),
// with values the registry gives its slot; their names are assembled from the modules.
std::string_view event_type_name(event_type t);
// Whether an event neither reveals anything hidden nor scores (undo.hpp may step back over it).
bool event_is_quiet(event_type t);

struct event {
  event_type type{};
  seat_t seat = no_seat;
  tile_type_id tile = 0;
  square_pos at;
  std::uint8_t rotation = 0;
  std::uint8_t feature = 0;
  feature_kind kind{};
  figure_type figure{};
  bool final = false;
  std::uint8_t owners = 0;  // bit per seat
  std::int32_t points = 0;
  std::uint8_t value = 0;  // points: its reason (points_reason); an expansion's event: its own
};

// Why a points event happened, when it is not the feature's own scoring. The base has only
// `feature`; each expansion's reasons are constants in its folder, like its events.
enum class points_reason : std::uint8_t { feature };
inline constexpr std::array<std::string_view, 1> base_points_reason_names{"feature"};
// The reason's name, or "" for a value nobody owns.
std::string_view points_reason_name(points_reason r);

using event_log = std::vector<event>;

}  // namespace carcassonne
