// Hills & Sheep in the views: the bag as a count, the flocks face up, each seat's shepherd in
// supply; names of the tokens in events. The tiles under hills appear nowhere (only tiles_left
// shrinks), and the bag's order is never written.
#include "expansion_views.hpp"
#include "hills_and_sheep/hills_and_sheep.hpp"
#include "hills_and_sheep/id.hpp"

namespace carcassonne::protocol {

namespace {

namespace hs = carcassonne::hills_and_sheep;

std::string flock_text(const game_state& s, const hs::flock_info& f) {
  const auto& n = s.features.node(f.at);
  const auto& pt = s.board.placed()[n.tile];
  std::string out = R"({"x":)" + std::to_string(pt.pos.x) + R"(,"y":)" + std::to_string(pt.pos.y) +
                    R"(,"feature":)";
  append_quoted(out, tiles()[pt.type].segments[n.local].id);
  out += R"(,"seats":[)";
  for (std::size_t i = 0; i < f.shepherds.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(s.figures[f.shepherds[i]].seat);
  }
  out += R"(],"tokens":[)";
  bool first_token = true;
  for (int k = 0; k < hs::token_kinds; ++k)
    for (int i = 0; i < f.tokens[k]; ++i) {
      if (!first_token) out += ',';
      first_token = false;
      append_quoted(out, hs::token_names[k]);
    }
  return out + R"(],"sheep":)" + std::to_string(f.sheep) + "}";
}

void public_fields(const game_state& s, view_doc& d) {
  d.scalar("bag", std::to_string(hs::bag_size(s)));
  auto& flocks = d.array("flocks");
  for (const auto& f : hs::flocks(s)) flocks.items.push_back(flock_text(s, f));
}

void supply(const game_state& s, int seat, std::string& out) {
  out += R"(,"shepherd":)";
  out += hs::shepherd_in_supply(s, seat) ? "1" : "0";
}

}  // namespace

namespace views {
extern const expansion_view hills_and_sheep{hills_and_sheep::id, public_fields, supply, nullptr,
                                            nullptr};
}  // namespace views

}  // namespace carcassonne::protocol
