// The Gifts on the page: each seat's unopened cards, the deck, your own hand and the opened ones.
import { cardName, CARD_HELP, plural } from './names.js';

export const gifts = {
  id: 'gifts',
  seatDetails: (game, p, el) => (game.hand_sizes ? [el('span', { class: 'gifts', title: 'unopened gift cards' }, plural(game.hand_sizes[p.seat], 'gift card'))] : []),
  gameInfo: (game) => (game.gift_deck !== undefined ? [`${plural(game.gift_deck, 'gift card')} in the deck`] : []),
  ownPanel(game, el) {
    const parts = [];
    if (Array.isArray(game.hand)) {
      parts.push(el('h3', {}, 'Your gift cards'),
        game.hand.length ? el('div', { class: 'hand' }, game.hand.map((c) => el('span', { class: 'gift-card', title: CARD_HELP[c] }, cardName(c))))
          : el('p', { class: 'muted' }, 'none'));
    }
    if (game.gift_discard?.length) parts.push(el('div', { class: 'game-info' }, `opened: ${game.gift_discard.map(cardName).join(', ')}`));
    return parts;
  },
};
