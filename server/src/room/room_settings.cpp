#include "room/room_settings.hpp"

namespace carcassonne::server {

json room_summary::to_json() const {
  json j{{"id", id},
         {"name", name},
         {"state", std::string(to_string(state))},
         {"public", is_public},
         {"seats", seats},
         {"taken", taken},
         {"players", players},
         {"expansions", expansions},
         {"spectators", spectators},
         {"spectator_delay", spectator_delay}};
  if (!commitment.empty()) j["commitment"] = commitment;  // docs/fairness.md
  if (!bots.empty()) j["bots"] = bots;
  if (!match.is_null()) j["match"] = match;  // only for rooms with match options set
  return j;
}

}  // namespace carcassonne::server
