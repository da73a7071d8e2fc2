// The Gifts in the views: the deck as a count, the discard pile face up, how many cards each seat
// holds; a seat's own cards only in its private part ("hand"). The Take 2 second tile is public.
#include "expansion_views.hpp"
#include "gifts/gifts.hpp"
#include "gifts/id.hpp"

namespace carcassonne::protocol {

namespace {

namespace gf = carcassonne::gifts;

void public_fields(const game_state& s, view_doc& d) {
  const auto& st = s.ext.get<gifts::state>();
  d.scalar("gift_deck", std::to_string(st.deck.size()));
  auto& discard = d.array("gift_discard");
  for (auto c : st.discard) discard.items.push_back(json_string(gf::card_names[c]));
  auto& hands = d.array("hand_sizes");
  for (int seat = 0; seat < s.seats; ++seat)
    hands.items.push_back(std::to_string(st.hands[seat].size()));
  d.scalar("extra_tile", s.awaiting == gifts::decision_choose_tile && st.extra >= 0
                             ? json_string(tiles()[static_cast<tile_type_id>(st.extra)].id)
                             : "null");
}

void private_fields(const game_state& s, int viewer, view_doc& d) {
  auto& hand = d.array("hand");
  for (auto c : s.ext.get<gifts::state>().hands[viewer])
    hand.items.push_back(json_string(gf::card_names[c]));
}

}  // namespace

namespace views {
extern const expansion_view gifts{gifts::id, public_fields, nullptr, private_fields, nullptr};
}  // namespace views

}  // namespace carcassonne::protocol
