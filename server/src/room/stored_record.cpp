#include "room/stored_record.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "carcassonne/protocol/record.hpp"
#include "fairness/fairness.hpp"

namespace carcassonne::server {

using json = nlohmann::json;

namespace {

// The record's "fairness" section (docs/fairness.md), for a room whose randomness is provable.
void add_stored_fairness(json& record, const json& meta) {
  const auto secret = meta.value("secret", std::string());
  const auto& setup = record.value("setup", json::object());
  if (secret.empty() || !setup.is_object()) return;
  std::vector<std::string> nonces;
  for (const auto& s : meta.value("seat_list", json::array()))
    nonces.push_back(s.is_object() ? s.value("nonce", std::string()) : std::string());
  auto parsed = protocol::parse_setup(setup);
  if (!parsed.ok()) return;
  const auto& moves = record.value("moves", json::array());
  auto replay = fairness::replay_outcomes(parsed.value->setup, {moves.begin(), moves.end()});
  record["fairness"] = fairness::record_section(secret, nonces, std::move(replay.outcomes));
}

}  // namespace

json stored_record(const stored_room& stored) {
  json moves = json::array();
  for (const auto& e : stored.moves) {
    if (e.move.value("type", json()) != "undo") {
      moves.push_back(e.move);
      continue;
    }
    // restore() refuses a marker without the moves it takes back: never in a stored room.
    const auto count = std::min(moves.size(), e.move.value("count", std::size_t{0}));
    moves.erase(moves.end() - static_cast<std::ptrdiff_t>(count), moves.end());
  }
  json record = protocol::record_to_json(stored.meta.value("record_setup", json()), moves);
  add_stored_fairness(record, stored.meta);
  return record;
}

}  // namespace carcassonne::server
