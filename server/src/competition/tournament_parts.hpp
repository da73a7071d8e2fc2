// What tournament.cpp, tournament_advance.cpp and tournament_json.cpp share: finding players and
// tables, and who goes through a knockout round. Internal to the tournament.
#pragma once
#include <string>
#include <vector>

#include "competition/tournament.hpp"

namespace carcassonne::server::competition::tournament_parts {

participant* find_participant(tournament& t, const std::string& id);
const participant* find_participant(const tournament& t, const std::string& id);
bool is_active(const tournament& t, const std::string& id);  // registered and not removed
tournament_table* table_at(tournament& t, const table_ref& ref);
// A table no room or series was made for and that has no result yet.
bool table_pending(const tournament_table& tb);

// The knockout stage has begun / the next round to start would be a knockout round.
bool knockout_started(const tournament& t);
bool next_round_is_knockout(const tournament& t);
int swiss_rounds_played(const tournament& t);

// Who goes through a finished knockout round, in bracket order (the rule in tournament.cpp).
std::vector<std::string> knockout_through(const tournament& t, const tournament_round& r);

// Range checks of settings, without the start's time (the stored form has it in the past).
maybe_error check_ranges(const tournament_settings& s);

}  // namespace carcassonne::server::competition::tournament_parts
