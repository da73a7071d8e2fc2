// The Gifts: the expansion's own state (the gift deck, the discard pile, the hands, Take 2).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "carcassonne/engine/types.hpp"

namespace carcassonne::gifts {

// The five cards (rules/gifts.md §1), in record-id order; 5 of each in the box.
enum class card : std::uint8_t { synod, road_sweeper, cash_out, change_position, take_two };
inline constexpr int card_kinds = 5;
inline constexpr int copies_per_card = 5;
inline constexpr std::array<std::string_view, card_kinds> card_names{
    "synod", "road_sweeper", "cash_out", "change_position", "take_two"};

struct state {
  std::vector<std::uint8_t> deck;                          // hidden: the top card is deck.back()
  std::vector<std::uint8_t> discard;                       // public, face up, in the order opened
  std::array<std::vector<std::uint8_t>, max_seats> hands;  // each seen by its seat only
  bool opened = false;  // a gift was opened this turn (one per turn)
  // Take 2 (§4.5): the second tile while the seat chooses, then the one not chosen until it is
  // shuffled back after placement (step 6c). Indexes are positions in game_state::supply.
  std::int16_t extra = -1;  // tile type of the other tile, -1 when none
  std::uint16_t extra_index = 0;
  std::uint16_t first_index = 0;
  std::vector<std::uint8_t> script;  // scripted card draws (setup.script.gifts), hidden
  std::uint16_t script_next = 0;
  bool scripted = false;
  bool scripted_deck = false;  // the supply is setup.script.deck (a leftover goes last)

  std::size_t heap_bytes() const {
    std::size_t n = deck.capacity() + discard.capacity() + script.capacity();
    for (const auto& h : hands) n += h.capacity();
    return n;
  }
  friend bool operator==(const state&, const state&) = default;
};

}  // namespace carcassonne::gifts
