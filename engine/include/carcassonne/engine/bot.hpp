// Computer players. A bot sees only its seat's information set (information_set_of): two states
// that the seat cannot tell apart give the same information set, so the same move for the same
// seed and budget. Pure and deterministic: no clock or thread; the caller passes a playout budget
// and, optionally, a deadline check.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "carcassonne/engine/game.hpp"

namespace carcassonne {

// The first four are the algorithms by name; `ismcts` is the reference opponent of the benchmark
// (docs/bots.md). The last five are the ladder's steps, from the weakest (ladder.hpp: each one an
// algorithm with a budget and a share of random moves). Names are stable: records and clients
// keep them.
enum class bot_level : std::uint8_t {
  random,
  greedy,
  strong,
  ismcts,
  beginner,
  casual,
  intermediate,
  advanced,
  expert
};
inline constexpr std::array<std::string_view, 9> bot_level_names{
    "random", "greedy",       "strong",   "ismcts", "beginner",
    "casual", "intermediate", "advanced", "expert"};
std::optional<bot_level> bot_level_from_name(std::string_view name);
inline std::string_view name_of(bot_level l) {
  return bot_level_names[static_cast<int>(l)];
}

// What one seat may know of a game: `state` with every hidden part (the supply's order, tiles
// under hills, the generator, the sheep bag's order, other seats' gift hands, future dice)
// replaced by a canonical form that depends only on what the seat can see.
struct information_set {
  game_state state;
  seat_t seat = 0;
};
information_set information_set_of(const game_state& s, seat_t seat);

struct bot_budget {
  int playouts = 2000;              // strong: simulated games per move; the others ignore it
  std::function<bool()> stop = {};  // optional: true once the caller's deadline has passed
  int simulations = 800;            // ismcts: tree simulations per move...
  int determinizations = 5;         // ...cycling over this many determinizations
};

struct bot_choice {
  move chosen;
  int playouts = 0;  // simulated games actually run
};

// A legal move for info.seat. Precondition: the game is not finished and info.seat decides.
bot_choice choose_move(const information_set& info, bot_level level, std::uint64_t seed,
                       const bot_budget& budget = {});

}  // namespace carcassonne
