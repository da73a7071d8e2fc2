// The named time controls of quick play (docs/protocol.md "Quick play"): a seek names one, and
// the room's match options follow from it. Every one has a clock, forfeits on time and takes no
// take-backs: strangers' games are played as the organised scene plays them.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carcassonne::server::competition {

// "blitz" (Fischer 5 min + 5 s), "rapid" (Fischer 10 min + 10 s), "daily" (a day a turn).
const std::vector<std::string>& time_control_names();
// The room's "match" options (docs/options.md "Match options") of a named time control.
std::optional<nlohmann::json> match_of(std::string_view time_control);
// A series' or a tournament's room template with its match made a competition's: forfeited on
// time, no take-backs (its clock is the template's).
nlohmann::json competition_room(nlohmann::json room);

}  // namespace carcassonne::server::competition
