// Views are written once, as text (view_doc); the JSON forms are parsed from that text, so the
// server's patches and the replay output can never disagree.
#include "carcassonne/protocol/view.hpp"

#include "carcassonne/protocol/json_codec.hpp"
#include "expansion_views.hpp"

namespace carcassonne::protocol {

using json = nlohmann::json;

namespace {

std::string num(long long v) {
  return std::to_string(v);
}

std::string awaiting_text(const game_state& s) {
  if (s.finished) return "null";
  std::string out = R"({"seat":)" + num(to_act(s)) + R"(,"decision":)";
  append_quoted(out, decision_name(s.awaiting));
  return out + "}";
}

std::string tile_text(const placed_tile& t) {
  std::string out = R"({"x":)" + num(t.pos.x) + R"(,"y":)" + num(t.pos.y) + R"(,"tile":)";
  append_quoted(out, tiles()[t.type].id);
  return out + R"(,"rotation":)" + num(t.rotation * 90) + "}";
}

std::string figure_text(const game_state& s, const figure_on_board& f) {
  const auto& n = s.features.node(f.segment);
  const auto& pt = s.board.placed()[n.tile];
  std::string out = R"({"seat":)" + num(f.seat) + R"(,"figure":)";
  append_quoted(out, figure_type_name(f.type));
  out += R"(,"x":)" + num(pt.pos.x) + R"(,"y":)" + num(pt.pos.y) + R"(,"feature":)";
  append_quoted(out, tiles()[pt.type].segments[n.local].id);
  for_each_view(s, [&](const expansion_view& v) {
    if (v.figure_fields) v.figure_fields(s, f, out);
  });
  return out + "}";
}

std::string player_text(const game_state& s, int seat, const std::vector<std::string>& names) {
  std::string out = R"({"seat":)" + num(seat) + R"(,"score":)" + num(s.players[seat].score) +
                    R"(,"supply":{"meeple":)" + num(s.players[seat].followers);
  for_each_view(s, [&](const expansion_view& v) {
    if (v.supply) v.supply(s, seat, out);
  });
  out += "}";
  if (static_cast<std::size_t>(seat) < names.size()) {
    out += R"(,"name":)";
    append_quoted(out, names[seat]);
  }
  return out + "}";
}

}  // namespace

view_doc public_doc(const game_state& s, const std::vector<std::string>& names) {
  view_doc d;
  d.fields.reserve(24);  // base keys and the expansions' (references into it are held)
  d.scalar("status", s.finished ? R"("finished")" : R"("playing")");
  auto& expansions = d.array("expansions");
  for (int e = 0; e < expansion_count; ++e)
    if (s.expansions.has(static_cast<expansion>(e)))
      expansions.items.push_back(json_string(expansion_name(static_cast<expansion>(e))));
  d.scalar("turn", num(s.turn));
  d.scalar("active", s.finished ? "null" : num(s.active));
  d.scalar("awaiting", awaiting_text(s));
  auto& scores = d.array("scores");
  for (int seat = 0; seat < s.seats; ++seat) scores.items.push_back(num(s.players[seat].score));
  auto& players = d.array("players");
  for (int seat = 0; seat < s.seats; ++seat) players.items.push_back(player_text(s, seat, names));
  if (s.forfeited) {  // only once a seat has left: views of other games are unchanged
    auto& forfeited = d.array("forfeited");
    for (int seat = 0; seat < s.seats; ++seat)
      if (s.forfeited >> seat & 1) forfeited.items.push_back(num(seat));
  }
  // The drawn tile until it is placed (also while Take 2's choice is pending, beside "extra_tile").
  d.scalar("tile", !s.finished && s.placed < 0 ? json_string(tiles()[s.drawn].id) : "null");
  d.scalar("tiles_left", num(s.tiles_left()));
  auto& board = d.array("board");
  board.items.reserve(s.board.placed().size());
  for (const auto& t : s.board.placed()) board.items.push_back(tile_text(t));
  auto& figures = d.array("figures");
  for (const auto& f : s.figures) figures.items.push_back(figure_text(s, f));
  auto& discarded = d.array("discarded");
  for (auto t : s.discarded) discarded.items.push_back(json_string(tiles()[t].id));
  for_each_view(s, [&](const expansion_view& v) {
    if (v.public_fields) v.public_fields(s, d);
  });
  return d;
}

view_doc private_doc(const game_state& s, int viewer) {
  view_doc d;
  d.scalar("viewer", viewer == spectator ? R"("spectator")" : num(viewer));
  if (viewer != spectator && !s.finished && viewer == to_act(s)) {
    auto& moves = d.array("legal_moves");
    for (const auto& m : legal_actions(s)) moves.items.push_back(move_text(m, s));
  }
  if (viewer != spectator)
    for_each_view(s, [&](const expansion_view& v) {
      if (v.private_fields) v.private_fields(s, viewer, d);
    });
  return d;
}

json public_view(const game_state& s, const std::vector<std::string>& names) {
  return json::parse(public_doc(s, names).text());
}

json private_view(const game_state& s, int viewer) {
  return json::parse(private_doc(s, viewer).text());
}

json build_view(const game_state& s, int viewer, const std::vector<std::string>& names) {
  const auto mine = private_doc(s, viewer);
  return json::parse(public_doc(s, names).text(&mine));
}

}  // namespace carcassonne::protocol
