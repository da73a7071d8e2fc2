// The Gifts (rules/gifts.md): a card for extending another player's road or city, one card
// opened per turn before placing (Synod, Road Sweeper, Cash Out, Change Position, Take 2), and
// 2 points per unopened card at the end.
#pragma once
#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/game.hpp"
#include "id.hpp"

namespace carcassonne::gifts {

extern const expansion_module module;

// Internal to the module (cards.cpp: the five effects; gifts.cpp: deck, receipt, Take 2).
namespace detail {
void card_moves(const game_state& s, std::vector<move>& out);
void open_card(game_state& s, const move& m, event_log* events);
void draw_extra_tile(game_state& s, event_log* events);
}  // namespace detail

}  // namespace carcassonne::gifts
