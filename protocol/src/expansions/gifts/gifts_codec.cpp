// The Gifts on the wire: opening a card (with its target), choosing the Take 2 tile, the card
// opened and the follower moved; points for unopened cards belong to no feature.
#include "codec_parts.hpp"
#include "gifts/gifts.hpp"
#include "gifts/id.hpp"

namespace carcassonne::protocol {

namespace {

namespace gf = carcassonne::gifts;

constexpr int change_position = 3;  // gf::card_names: the one card with a "to" feature

void read_open_gift(move_reader& r, const game_state& s, move& m) {
  std::string card;
  if (!r.string("card", card)) return;
  const int c = find_name(gf::card_names, card);
  if (c < 0) {
    r.fail("malformed_move", "unknown gift card '" + card + "'");
    return;
  }
  m.choice = static_cast<std::uint8_t>(c);
  if (r.has("x") || r.has("feature")) {
    m.has_target = true;
    if (!r.square(m.at) || !r.feature(s, m.at, "feature", m.feature)) return;
    if (r.has("to")) r.feature(s, m.at, "to", m.to);
  }
  r.boolean("protect", m.protect);
}
void write_open_gift(move_writer& w) {
  const auto& m = w.m;
  w.field("card", json_string(gf::card_names[m.choice % gf::card_names.size()]));
  if (m.has_target) {
    w.square();
    w.field("feature", w.feature_id(m.feature));
    if (m.choice == change_position) w.field("to", w.feature_id(m.to));
  }
  if (m.protect) w.field("protect", "true");
}

void read_choose_tile(move_reader& r, const game_state&, move& m) {
  int index = 0;
  if (r.integer("index", 0, 1, index)) m.choice = static_cast<std::uint8_t>(index);
}
void write_choose_tile(move_writer& w) {
  w.field("index", std::to_string(w.m.choice));
}

void gift_opened_keys(const event& e, event_writer& w) {
  w.string("card", gf::card_names.at(e.value));
}
void figure_moved_keys(const event& e, event_writer& w) {
  w.string("figure", figure_type_name(e.figure));
  write_feature_at(e, w);
  w.string("from", tiles()[e.tile].segments.at(e.value).id);
}

constexpr std::array<move_codec, 2> moves{{
    {gf::move_open_gift, read_open_gift, write_open_gift},
    {gf::move_choose_tile, read_choose_tile, write_choose_tile},
}};
constexpr std::array<event_codec, 2> events{{
    {gf::event_gift_opened, gift_opened_keys},
    {gf::event_figure_moved, figure_moved_keys},
}};
constexpr std::array<points_reason, 1> featureless{gf::reason_gifts};

// The cards dealt: no event names them, the apply appended them to the seats' hands, so the last
// ones of each hand are this apply's, in order.
void outcomes(const game_state& after, const event_log& log, bool, placed_outcomes& out) {
  std::array<std::size_t, max_seats> dealt{};
  for (const auto& e : log)
    if (e.type == gf::event_gift_received && e.seat < max_seats) ++dealt[e.seat];
  std::array<std::size_t, max_seats> next{};
  for (int s = 0; s < max_seats; ++s) {
    const auto& hand = after.ext.get<gifts::state>().hands[s];
    next[s] = hand.size() - std::min(dealt[s], hand.size());
  }
  for (std::size_t i = 0; i < log.size(); ++i) {
    const auto& e = log[i];
    if (e.type != gf::event_gift_received) continue;
    const auto& hand = after.ext.get<gifts::state>().hands[e.seat];
    if (next[e.seat] < hand.size())
      out.push_back({i + 1, {{"gift", gf::card_names[hand[next[e.seat]++]]}, {"seat", e.seat}}});
  }
}

}  // namespace

namespace codecs {
extern const expansion_codec gifts{gifts::id, moves, events, featureless, outcomes};
}  // namespace codecs

}  // namespace carcassonne::protocol
