// The three levels behind choose_move (bot.cpp dispatches); each reads only the information set.
#pragma once
#include <cstdint>

#include "carcassonne/engine/bot.hpp"

namespace carcassonne::bots {

// A uniformly random legal move.
bot_choice choose_random(const information_set& info, std::uint64_t seed);
// The move with the best evaluate() after the seat's own follow-ups this turn (ties by seed).
bot_choice choose_greedy(const information_set& info, std::uint64_t seed);
// Flat Monte Carlo over determinizations among the greedy's best turn plans (strong.cpp).
bot_choice choose_strong(const information_set& info, std::uint64_t seed, const bot_budget& budget);
// Information-set Monte Carlo tree search, the benchmark's reference opponent (ismcts.cpp).
bot_choice choose_ismcts(const information_set& info, std::uint64_t seed, const bot_budget& budget);

}  // namespace carcassonne::bots
