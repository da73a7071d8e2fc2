// Views are written once, as text (view_doc); the JSON forms are parsed from that text, so the
// server's patches and the replay output can never disagree.
#include "carcassonne/protocol/view.hpp"

#include "carcassonne/protocol/json_codec.hpp"
#include "expansion_views.hpp"

namespace carcassonne::protocol {

using json = nlohmann::json;
using namespace std::string_view_literals;  // literals appended with their length known

namespace {

std::string num(long long v) {
  std::string out;
  append_number(out, v);
  return out;
}

std::string awaiting_text(const game_state& s) {
  if (s.finished) return "null";
  std::string out = R"({"seat":)";
  append_number(out, to_act(s));
  out += R"(,"decision":)"sv;
  append_quoted(out, decision_name(s.awaiting));
  return out + "}";
}

// The items below are written straight into their array's buffer (no string per element).
void write_tile(std::string& out, const placed_tile& t) {
  out += R"({"x":)"sv;
  append_number(out, t.pos.x);
  out += R"(,"y":)"sv;
  append_number(out, t.pos.y);
  out += R"(,"tile":)"sv;
  append_quoted(out, tiles()[t.type].id);
  out += R"(,"rotation":)"sv;
  append_number(out, t.rotation * 90);
  out.push_back('}');
}

void write_figure(std::string& out, const game_state& s, const figure_on_board& f) {
  const auto& n = s.features.node(f.segment);
  const auto& pt = s.board.placed()[n.tile];
  out += R"({"seat":)"sv;
  append_number(out, f.seat);
  out += R"(,"figure":)"sv;
  append_quoted(out, figure_type_name(f.type));
  out += R"(,"x":)"sv;
  append_number(out, pt.pos.x);
  out += R"(,"y":)"sv;
  append_number(out, pt.pos.y);
  out += R"(,"feature":)"sv;
  append_quoted(out, tiles()[pt.type].segments[n.local].id);
  for_each_view(s, [&](const expansion_view& v) {
    if (v.figure_fields) v.figure_fields(s, f, out);
  });
  out.push_back('}');
}

void write_player(std::string& out, const game_state& s, int seat,
                  const std::vector<std::string>& names) {
  out += R"({"seat":)"sv;
  append_number(out, seat);
  out += R"(,"score":)"sv;
  append_number(out, s.players[seat].score);
  out += R"(,"supply":{"meeple":)"sv;
  append_number(out, s.players[seat].followers);
  for_each_view(s, [&](const expansion_view& v) {
    if (v.supply) v.supply(s, seat, out);
  });
  out.push_back('}');
  if (static_cast<std::size_t>(seat) < names.size()) {
    out += R"(,"name":)"sv;
    append_quoted(out, names[seat]);
  }
  out.push_back('}');
}

}  // namespace

view_doc public_doc(const game_state& s, const std::vector<std::string>& names, view_doc* previous,
                    board_memo* memo) {
  view_doc d;
  d.fields.reserve(24);  // base keys and the expansions' (references into it are held)
  d.scalar("status", s.finished ? R"("finished")" : R"("playing")");
  auto& expansions = d.array("expansions");
  for (int e = 0; e < expansion_count; ++e) {
    if (!s.expansions.has(static_cast<expansion>(e))) continue;
    append_quoted(expansions.items.open(), expansion_name(static_cast<expansion>(e)));
    expansions.items.close();
  }
  d.scalar("turn", num(s.turn));
  d.scalar("active", s.finished ? "null" : num(s.active));
  d.scalar("awaiting", awaiting_text(s));
  auto& scores = d.array("scores");
  for (int seat = 0; seat < s.seats; ++seat) {
    append_number(scores.items.open(), s.players[seat].score);
    scores.items.close();
  }
  auto& players = d.array("players");
  for (int seat = 0; seat < s.seats; ++seat) {
    write_player(players.items.open(), s, seat, names);
    players.items.close();
  }
  if (s.forfeited) {  // only once a seat has left: views of other games are unchanged
    auto& forfeited = d.array("forfeited");
    for (int seat = 0; seat < s.seats; ++seat)
      if (s.forfeited >> seat & 1) forfeited.items.push_back(num(seat));
  }
  // The drawn tile until it is placed (also while Take 2's choice is pending, beside "extra_tile").
  d.scalar("tile", !s.finished && s.placed < 0 ? json_string(tiles()[s.drawn].id) : "null");
  d.scalar("tiles_left", num(s.tiles_left()));
  auto& board = d.array("board");
  const auto& placed = s.board.placed();
  const auto key = [&](std::size_t i) {
    return board_memo::tile{placed[i].pos, placed[i].type, placed[i].rotation};
  };
  std::size_t reused = 0;  // leading tiles whose text is taken from `previous`
  auto* before = previous && memo ? previous->find("board") : nullptr;
  if (before && before->is_array && before->items.size() == memo->tiles.size()) {
    while (reused < memo->tiles.size() && reused < placed.size() &&
           memo->tiles[reused] == key(reused))
      ++reused;
    if (reused > 0 && reused == before->items.size()) {  // it only grew: no copy, no comparison
      board.items.carry_from(before->items);
    } else if (reused > 0) {  // a take-back
      board.items = before->items;
      board.items.keep_first(reused);
    }
  }
  board.items.reserve(placed.size(), 48);  // after: a carried text keeps its buffer
  for (std::size_t i = reused; i < placed.size(); ++i) {
    write_tile(board.items.open(), placed[i]);
    board.items.close();
  }
  if (memo) {
    memo->tiles.resize(reused);
    for (std::size_t i = reused; i < placed.size(); ++i) memo->tiles.push_back(key(i));
  }
  auto& figures = d.array("figures");
  figures.items.reserve(s.figures.size(), 72);
  const auto* figures_before = previous && memo ? previous->find("figures") : nullptr;
  const bool reuse_figures = figures_before && figures_before->is_array &&
                             figures_before->items.size() == memo->figures.size();
  std::size_t next = 0;  // where the next figure's text is looked for in the previous list
  std::vector<board_memo::figure> written;
  if (memo) written.reserve(s.figures.size());
  for (const auto& f : s.figures) {
    const auto& n = s.features.node(f.segment);
    const auto& pt = placed[n.tile];
    const board_memo::figure k{f, pt.pos, pt.type, n.local};
    std::size_t found = next;
    if (reuse_figures)
      while (found < memo->figures.size() && !(memo->figures[found] == k)) ++found;
    if (reuse_figures && found < memo->figures.size()) {
      figures.items.push_back(figures_before->items[found]);
      next = found + 1;
    } else {
      write_figure(figures.items.open(), s, f);
      figures.items.close();
    }
    if (memo) written.push_back(k);
  }
  if (memo) memo->figures = std::move(written);
  auto& discarded = d.array("discarded");
  for (auto t : s.discarded) {
    append_quoted(discarded.items.open(), tiles()[t].id);
    discarded.items.close();
  }
  for_each_view(s, [&](const expansion_view& v) {
    if (v.public_fields) v.public_fields(s, d);
  });
  return d;
}

view_doc private_doc(const game_state& s, int viewer) {
  view_doc d;
  d.fields.reserve(4);  // viewer, legal_moves and a few of the expansions'
  d.scalar("viewer", viewer == spectator ? R"("spectator")" : num(viewer));
  if (viewer != spectator && !s.finished && viewer == to_act(s)) {
    auto& moves = d.array("legal_moves");
    const auto legal = legal_actions(s);
    moves.items.reserve(legal.size(), 64);
    for (const auto& m : legal) {
      append_move_text(moves.items.open(), m, s);
      moves.items.close();
    }
  }
  if (viewer != spectator)
    for_each_view(s, [&](const expansion_view& v) {
      if (v.private_fields) v.private_fields(s, viewer, d);
    });
  return d;
}

bool private_doc_is_viewer_only(const game_state& s, int viewer) {
  // The conditions under which private_doc writes more than "viewer", read the same way.
  if (viewer != spectator && !s.finished && viewer == to_act(s)) return false;
  if (viewer == spectator) return true;
  bool own_fields = false;
  for_each_view(s, [&](const expansion_view& v) { own_fields = own_fields || v.private_fields; });
  return !own_fields;
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
