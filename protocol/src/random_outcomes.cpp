#include "carcassonne/protocol/random_outcomes.hpp"

#include <algorithm>

#include "carcassonne/protocol/view_doc.hpp"
#include "codec_parts.hpp"

namespace carcassonne::protocol {

namespace {

// Each module's own outcomes of one apply, in the registry's order.
placed_outcomes module_outcomes(const game_state& after, const event_log& events, bool setup) {
  placed_outcomes placed;
  for (int e = 0; e < expansion_count; ++e)
    if (const auto* codec = find_codec(static_cast<expansion>(e)); codec && codec->outcomes)
      codec->outcomes(after, events, setup, placed);
  return placed;
}

// The base game's tile draws and the modules' outcomes, in the order they happened.
json merged(const event_log& events, placed_outcomes modules) {
  placed_outcomes placed;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (events[i].type == event_type::tile_drawn)
      placed.push_back({i + 1, {{"tile", tiles()[events[i].tile].id}}});
  for (auto& m : modules) placed.push_back(std::move(m));
  // By the event that revealed each; one event reveals one outcome, so ties are only the setup's
  // (at 0), kept in the registry's order.
  std::stable_sort(placed.begin(), placed.end(),
                   [](const placed_outcome& a, const placed_outcome& b) { return a.at < b.at; });
  json out = json::array();
  for (auto& p : placed) out.push_back(std::move(p.entry));
  return out;
}

}  // namespace

json random_outcomes(const game_state& after, const event_log& events, bool setup) {
  return merged(events, module_outcomes(after, events, setup));
}

void append_random_outcomes(std::string& out, const game_state& after, const event_log& events,
                            bool setup) {
  auto modules = module_outcomes(after, events, setup);
  if (!modules.empty()) {
    out += merged(events, std::move(modules)).dump();
    return;
  }
  // Tile draws alone (nearly every move): in event order already.
  out.push_back('[');
  bool first = true;
  for (const auto& e : events) {
    if (e.type != event_type::tile_drawn) continue;
    if (!first) out.push_back(',');
    first = false;
    out += R"({"tile":)";
    append_quoted(out, tiles()[e.tile].id);
    out.push_back('}');
  }
  out.push_back(']');
}

}  // namespace carcassonne::protocol
