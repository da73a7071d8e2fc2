// The Gifts on the page: each seat's unopened cards, the deck, your own hand and the opened ones;
// the cards' names and help, and the Gifts' moves and events in words.
import { featureWords, plural } from './names.js';

export const CARDS = {
  synod: 'Synod',
  road_sweeper: 'Road Sweeper',
  cash_out: 'Cash Out',
  change_position: 'Change Position',
  take_two: 'Take 2',
};
export const cardName = (id) => CARDS[id] ?? id;

export const CARD_HELP = {
  synod: 'put a follower from your supply on a monastery',
  road_sweeper: 'score a road now and send its followers home',
  cash_out: 'take a follower back for 2 points per follower on its feature',
  change_position: 'move a follower to another feature of its tile',
  take_two: 'draw a second tile and choose one',
};

function openGiftText(m, on, toSide) {
  const card = cardName(m.card);
  if (m.x === undefined) return `Open ${card}`;
  if (m.card === 'change_position') {
    const to = toSide ? ` (${toSide})` : '';
    return `${card}: your follower from the ${featureWords(m.feature)}${on} to the ${featureWords(m.to)}${to}${m.protect ? ', protected (−4)' : ''}`;
  }
  return `${card} on the ${featureWords(m.feature)}${on}${m.protect ? ', protected (−4)' : ''}`;
}

export const gifts = {
  id: 'gifts',
  events: {
    figure_moved: (e, { who, at, kindWord }) => `${who}'s follower moved from the ${featureWords(e.from)} to the ${kindWord(e)}${at(e)}.`,
    gift_received: (e, { who }) => `${who} received a gift card.`,
    gift_opened: (e, { who }) => `${who} opened ${cardName(e.card)}.`,
  },
  reasons: {
    cash_out: (who, pts) => `${who} cashed out for ${pts}.`,
    gifts: (who, pts) => `${who} scored ${pts} for unopened gifts.`,
  },
  moves: {
    choose_tile: (m) => (m.index === 0 ? 'Keep the first tile' : 'Take the second tile'),
    open_gift: openGiftText,
  },
  decisions: { choose_tile: 'choose a tile' },
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
