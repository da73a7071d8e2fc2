// The Peasant Revolts on the wire: protecting a follower (square and feature), and the revolt
// (the feature kind it is against).
#include "codec_parts.hpp"
#include "peasant_revolts/id.hpp"
#include "peasant_revolts/peasant_revolts.hpp"

namespace carcassonne::protocol {

namespace {

namespace pr = carcassonne::peasant_revolts;

void read_protect(move_reader& r, const game_state& s, move& m) {
  r.square(m.at) && r.feature(s, m.at, "feature", m.feature);
}
void write_protect(move_writer& w) {
  w.square();
  w.field("feature", w.feature_id(w.m.feature));
}

void revolt_keys(const event& e, event_writer& w) {
  w.string("kind", feature_kind_names[static_cast<int>(e.kind)]);
}

constexpr std::array<move_codec, 1> moves{{{pr::move_protect, read_protect, write_protect}}};
constexpr std::array<event_codec, 1> events{{{pr::event_revolt, revolt_keys}}};

// The tiles set aside unseen at setup, before anything else the start revealed.
void outcomes(const game_state& after, const event_log&, bool setup, placed_outcomes& out) {
  if (!setup || after.ext.get<peasant_revolts::state>().set_aside.empty()) return;
  json ids = json::array();
  for (const auto t : after.ext.get<peasant_revolts::state>().set_aside)
    ids.push_back(tiles()[t].id);
  out.push_back({0, {{"set_aside", std::move(ids)}}});
}

}  // namespace

namespace codecs {
extern const expansion_codec peasant_revolts{peasant_revolts::id, moves, events, {}, outcomes};
}  // namespace codecs

}  // namespace carcassonne::protocol
