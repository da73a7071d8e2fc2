// The ladder: named bot levels from beginner to expert, each one of the algorithms of bot.hpp
// with its own budget and a share of uniformly random moves, so that their strengths are roughly
// evenly spaced in rating (measured on the server's scale: docs/bots.md "The ladder"). Data only;
// choose_move plays a ladder level through ladder_move.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "carcassonne/engine/bot.hpp"

namespace carcassonne {

struct ladder_step {
  bot_level level;           // its name is name_of(level)
  bot_level algorithm;       // random, greedy or strong
  int random_permille = 0;   // of its decisions, this many per thousand are uniformly random
  int playouts = 0;          // strong: simulated games per move (the caller's budget caps it)
  std::string_view summary;  // one line for people
};

// Weakest first. Changing a step changes its strength: measure it again (carcassonne ladder).
inline constexpr std::array<ladder_step, 5> ladder{{
    {bot_level::beginner, bot_level::greedy, 240, 0, "greedy, 24% of its moves random"},
    {bot_level::casual, bot_level::greedy, 120, 0, "greedy, 12% of its moves random"},
    {bot_level::intermediate, bot_level::greedy, 0, 0, "greedy: the move worth most now"},
    {bot_level::advanced, bot_level::strong, 0, 200, "strong, 200 playouts a move"},
    {bot_level::expert, bot_level::strong, 0, 2000, "strong, 2,000 playouts a move"},
}};

// The step of a ladder level; nothing for the algorithms named by themselves.
std::optional<ladder_step> ladder_step_of(bot_level level);

// A ladder step's move: with the seed's first draw below random_permille a uniformly random legal
// move, else the algorithm's with the playouts min(step.playouts, budget.playouts) and the
// budget's stop. Same preconditions and determinism as choose_move.
bot_choice ladder_move(const information_set& info, const ladder_step& step, std::uint64_t seed,
                       const bot_budget& budget);

}  // namespace carcassonne
