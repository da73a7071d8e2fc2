#include "table/game_table.hpp"

#include <utility>

namespace carcassonne::server {

void game_table::start(game_state g, std::vector<std::string> seat_names, std::string setup,
                       std::string first) {
  names = std::move(seat_names);
  setup_text = std::move(setup);
  game = std::move(g);
  outcomes = {std::move(first)};
  delayed.start(*game);
}

nlohmann::json game_table::setup() const {
  return setup_text.empty() ? nlohmann::json() : nlohmann::json::parse(setup_text, nullptr, false);
}

record_parts game_table::record(const std::string& secret, std::vector<std::string> nonces) const {
  record_parts p{setup_text, journal.moves, secret, {}, {}};
  if (!p.secret.empty()) {
    p.nonces = std::move(nonces);
    p.outcomes = outcomes;
  }
  return p;
}

}  // namespace carcassonne::server
