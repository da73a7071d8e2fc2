// Easter on the wire: the bunny's path (1 to 3 squares), where the bunny is put or hops, nests
// scored, eggs and rolls; egg points belong to no feature.
#include "codec_parts.hpp"
#include "easter/easter.hpp"
#include "easter/id.hpp"

namespace carcassonne::protocol {

namespace {

namespace ea = carcassonne::easter;

void read_bunny(move_reader& r, const game_state&, move& m) {
  const auto* it = r.tree_member("path");
  if (!it || !it->is_array() || it->empty() || it->size() > max_bunny_hops) {
    r.fail("malformed_move", "path must be a list of 1 to 3 [x, y] squares");
    return;
  }
  for (const auto& p : *it) {
    constexpr long long lim = std::numeric_limits<std::int16_t>::max();
    if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer() ||
        p[0].get<long long>() < -lim || p[0].get<long long>() > lim ||
        p[1].get<long long>() < -lim || p[1].get<long long>() > lim) {
      r.fail("malformed_move", "each path entry is [x, y], integers in range");
      return;
    }
    m.path[m.path_length++] = {static_cast<std::int16_t>(p[0].get<int>()),
                               static_cast<std::int16_t>(p[1].get<int>())};
  }
}
void write_bunny(move_writer& w) {
  std::string path = "[";
  for (int i = 0; i < w.m.path_length; ++i) {
    if (i) path += ",";
    path += '[';  // appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on "[" + string&&
    path += std::to_string(w.m.path[i].x);
    path += ',';
    path += std::to_string(w.m.path[i].y);
    path += ']';
  }
  w.field("path", path + "]");
}

void square_keys(const event& e, event_writer& w) {
  w.number("x", e.at.x);
  w.number("y", e.at.y);
}
void eggs_keys(const event& e, event_writer& w) {
  square_keys(e, w);
  w.number("eggs", e.value);
}
void roll_keys(const event& e, event_writer& w) {
  w.number("roll", e.value);
}

constexpr std::array<move_codec, 1> moves{{{ea::move_bunny, read_bunny, write_bunny}}};
constexpr std::array<event_codec, 5> events{{
    {ea::event_bunny_placed, square_keys},
    {ea::event_nest_scored, square_keys},
    {ea::event_eggs_collected, eggs_keys},
    {ea::event_die_rolled, roll_keys},
    {ea::event_bunny_moved, square_keys},
}};
constexpr std::array<points_reason, 1> featureless{ea::reason_eggs};

// The die's rolls.
void outcomes(const game_state&, const event_log& log, bool, placed_outcomes& out) {
  for (std::size_t i = 0; i < log.size(); ++i)
    if (log[i].type == ea::event_die_rolled) out.push_back({i + 1, {{"die", log[i].value}}});
}

}  // namespace

namespace codecs {
extern const expansion_codec easter{easter::id, moves, events, featureless, outcomes};
}  // namespace codecs

}  // namespace carcassonne::protocol
