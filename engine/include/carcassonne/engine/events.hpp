// Events: what an apply did, in order, for logs, views and clients ("Ann completed a city").
#pragma once
#include <array>
#include <cstdint>
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
                      // value: points_reason (Easter eggs have no feature: at is unused)
  game_finished,
  // Expansion events (their meaning is in the expansion's module).
  tile_hidden,     // seat: a tile left the supply face down, unseen (no tile id, ever)
  token_drawn,     // seat, value = token drawn from a bag
  flock_scored,    // at, feature (the field), points, owners (seats scoring)
  flock_lost,      // at, feature (the field), owners (seats whose figures return)
  revolt,          // seat (who drew), kind: a revolt against followers on that kind
  gift_received,   // seat (the card itself is in that seat's view only)
  gift_opened,     // seat, value = card
  figure_moved,    // seat, figure, at, feature (where it went), value = the segment it left
  bunny_placed,    // seat (who placed the tile), at: a neutral figure was put on a tile
  nest_scored,     // seat (who completed it), at: a nest (3x3 area) is scored for eggs
  eggs_collected,  // seat, at (where), value = eggs received
  die_rolled,      // seat, value = the roll
  bunny_moved,     // seat (who moved it), at: one hop
  bunny_stuck,     // seat: its go is skipped, the bunny cannot move
};
inline constexpr int event_type_count = 23;
inline constexpr std::array<std::string_view, event_type_count> event_type_names{
    "turn_started",    "tile_drawn",        "tile_discarded", "tile_placed",   "figure_deployed",
    "figure_returned", "feature_completed", "points",         "game_finished", "tile_hidden",
    "token_drawn",     "flock_scored",      "flock_lost",     "revolt",        "gift_received",
    "gift_opened",     "figure_moved",      "bunny_placed",   "nest_scored",   "eggs_collected",
    "die_rolled",      "bunny_moved",       "bunny_stuck"};

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
  std::uint8_t value =
      0;  // token_drawn: the token; points: its reason (points_reason); eggs, a roll
};

// Why a points event happened, when it is not the feature's own scoring.
enum class points_reason : std::uint8_t {
  feature,
  flock,
  revolt,
  protection,
  gifts,
  cash_out,
  eggs
};
inline constexpr std::array<std::string_view, 7> points_reason_names{
    "feature", "flock", "revolt", "protection", "gifts", "cash_out", "eggs"};

using event_log = std::vector<event>;

}  // namespace carcassonne
