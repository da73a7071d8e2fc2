#include "carcassonne/protocol/random_outcomes.hpp"

#include <algorithm>

#include "codec_parts.hpp"

namespace carcassonne::protocol {

json random_outcomes(const game_state& after, const event_log& events, bool setup) {
  placed_outcomes placed;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (events[i].type == event_type::tile_drawn)
      placed.push_back({i + 1, {{"tile", tiles()[events[i].tile].id}}});
  for (int e = 0; e < expansion_count; ++e)
    if (const auto* codec = find_codec(static_cast<expansion>(e)); codec && codec->outcomes)
      codec->outcomes(after, events, setup, placed);
  // By the event that revealed each; one event reveals one outcome, so ties are only the setup's
  // (at 0), kept in the registry's order.
  std::stable_sort(placed.begin(), placed.end(),
                   [](const placed_outcome& a, const placed_outcome& b) { return a.at < b.at; });
  json out = json::array();
  for (auto& p : placed) out.push_back(std::move(p.entry));
  return out;
}

}  // namespace carcassonne::protocol
