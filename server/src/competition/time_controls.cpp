#include "competition/time_controls.hpp"

namespace carcassonne::server::competition {

const std::vector<std::string>& time_control_names() {
  static const std::vector<std::string> names{"blitz", "rapid", "daily"};
  return names;
}

std::optional<nlohmann::json> match_of(std::string_view time_control) {
  nlohmann::json m{{"timeout", "forfeit"}, {"undo", "off"}};
  if (time_control == "blitz") {
    m["clock"] = "fischer";
    m["initial_s"] = 300;
    m["increment_s"] = 5;
  } else if (time_control == "rapid") {
    m["clock"] = "fischer";
    m["initial_s"] = 600;
    m["increment_s"] = 10;
  } else if (time_control == "daily") {
    m["clock"] = "correspondence";
    m["move_hours"] = 24;
  } else {
    return std::nullopt;
  }
  return m;
}

nlohmann::json competition_room(nlohmann::json room) {
  room["match"]["timeout"] = "forfeit";
  room["match"]["undo"] = "off";
  return room;
}

}  // namespace carcassonne::server::competition
