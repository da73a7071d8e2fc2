// Easter in the views: every seat's eggs (public, E-9), the bunny's square, and while the game
// waits for a bunny move, whose go it is, its roll and the squares visited in this phase. Event
// fields: eggs, rolls. The scripted dice are never written.
#include "easter/easter.hpp"
#include "easter/id.hpp"
#include "expansion_views.hpp"

namespace carcassonne::protocol {

namespace {

std::string square_text(square_pos p) {
  return R"({"x":)" + std::to_string(p.x) + R"(,"y":)" + std::to_string(p.y) + "}";
}

void public_fields(const game_state& s, view_doc& d) {
  auto& eggs = d.array("eggs");
  for (int seat = 0; seat < s.seats; ++seat)
    eggs.items.push_back(std::to_string(easter::eggs(s, seat)));
  const auto at = easter::bunny(s);
  d.scalar("bunny", at ? square_text(*at) : "null");
  const auto go = easter::current_go(s);
  if (!go) {
    d.scalar("bunny_go", "null");
    return;
  }
  std::string out = R"({"seat":)" + std::to_string(go->seat) + R"(,"roll":)" +
                    std::to_string(go->roll) + R"(,"visited":[)";
  for (std::size_t i = 0; i < go->visited.size(); ++i) {
    if (i) out += ',';
    out += '[';  // piece by piece: GCC 12 warns (-Wrestrict, falsely) on "[" + string&&
    out += std::to_string(go->visited[i].x);
    out += ',';
    out += std::to_string(go->visited[i].y);
    out += ']';
  }
  d.scalar("bunny_go", out + "]}");
}

}  // namespace

namespace views {
extern const expansion_view easter{easter::id, public_fields, nullptr, nullptr, nullptr};
}  // namespace views

}  // namespace carcassonne::protocol
