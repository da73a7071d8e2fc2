#include "carcassonne/protocol/view.hpp"

#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::protocol {

using json = nlohmann::json;

namespace {

json awaiting(const game_state& s) {
  if (s.finished) return nullptr;
  return {{"seat", s.active}, {"decision", decision_names[static_cast<int>(s.awaiting)]}};
}

json board_tiles(const game_state& s) {
  json out = json::array();
  for (const auto& t : s.board.placed())
    out.push_back({{"x", t.pos.x}, {"y", t.pos.y}, {"tile", tiles()[t.type].id},
                   {"rotation", t.rotation * 90}});
  return out;
}

json figures(const game_state& s) {
  json out = json::array();
  for (const auto& f : s.figures) {
    const auto& n = s.features.node(f.segment);
    const auto& pt = s.board.placed()[n.tile];
    out.push_back({{"seat", f.seat},
                   {"figure", figure_type_names[static_cast<int>(f.type)]},
                   {"x", pt.pos.x},
                   {"y", pt.pos.y},
                   {"feature", tiles()[pt.type].segments[n.local].id}});
  }
  return out;
}

json players(const game_state& s, const std::vector<std::string>& names) {
  json out = json::array();
  for (int seat = 0; seat < s.seats; ++seat) {
    json p{{"seat", seat},
           {"score", s.players[seat].score},
           {"supply", {{"meeple", s.players[seat].followers}}}};
    if (static_cast<std::size_t>(seat) < names.size()) p["name"] = names[seat];
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

json public_view(const game_state& s, const std::vector<std::string>& names) {
  json scores = json::array();
  for (int seat = 0; seat < s.seats; ++seat) scores.push_back(s.players[seat].score);
  json discarded = json::array();
  for (auto t : s.discarded) discarded.push_back(tiles()[t].id);
  json expansions = json::array();
  for (int e = 0; e < expansion_count; ++e)
    if (s.expansions.has(static_cast<expansion>(e))) expansions.push_back(expansion_names[e]);

  return {{"status", s.finished ? "finished" : "playing"},
          {"expansions", expansions},
          {"turn", s.turn},
          {"active", s.finished ? json(nullptr) : json(s.active)},
          {"awaiting", awaiting(s)},
          {"scores", scores},
          {"players", players(s, names)},
          {"tile", s.awaiting == decision::place_tile ? json(tiles()[s.drawn].id) : json(nullptr)},
          {"tiles_left", s.tiles_left()},
          {"board", board_tiles(s)},
          {"figures", figures(s)},
          {"discarded", discarded}};
}

json private_view(const game_state& s, int viewer) {
  json v{{"viewer", viewer == spectator ? json("spectator") : json(viewer)}};
  if (viewer != spectator && !s.finished && viewer == s.active) {
    json moves = json::array();
    for (const auto& m : legal_actions(s)) moves.push_back(move_to_json(m, s));
    v["legal_moves"] = std::move(moves);
  }
  return v;
}

json build_view(const game_state& s, int viewer, const std::vector<std::string>& names) {
  json v = public_view(s, names);
  // Bound to a name: a range-for over items() of a temporary would dangle (before C++23).
  const json mine = private_view(s, viewer);
  for (const auto& [key, value] : mine.items()) v[key] = value;
  return v;
}

}  // namespace carcassonne::protocol
