#include "table/record_parts.hpp"

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fairness/fairness.hpp"

namespace carcassonne::server {

using json = nlohmann::json;

json record_of(const record_parts& p) {
  json moves = json::array();
  moves.get_ref<json::array_t&>().reserve(p.moves.size());
  for (const auto& m : p.moves) moves.push_back(protocol::move_json_from_text(m));
  json setup = p.setup.empty() ? json() : json::parse(p.setup, nullptr, false);
  json r = protocol::record_to_json(std::move(setup), std::move(moves));
  if (!p.secret.empty()) {
    std::vector<json> outcomes;
    outcomes.reserve(p.outcomes.size());
    for (const auto& o : p.outcomes) outcomes.push_back(json::parse(o));
    r["fairness"] = fairness::record_section(p.secret, p.nonces, std::move(outcomes));
  }
  return r;
}

}  // namespace carcassonne::server
