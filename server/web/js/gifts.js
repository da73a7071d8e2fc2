// The Gifts on the page: each seat's unopened cards, the deck, your own hand and the opened ones;
// the cards' names and help, and the Gifts' moves and events in words; in the action bar, a
// button per card beside Place, a card's targets, and Take 2's choice of tile.
import { el } from './dom.js';
import { tilePicture } from './tiles_svg.js';
import { featureGroups } from './features.js';
import { featureWords, plural } from './names.js';
import { describeMove } from './moves_text.js';

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

// The targets of the card being opened (`d.own.card`): markers on the board, buttons, Cancel.
function cardTargets(d, game, moves) {
  const card = d.own.card;
  // Road Sweeper names a road by any of its segments: one target per road, not per segment.
  if (card === 'road_sweeper') {
    const groups = featureGroups(game.board);
    const seen = new Map();
    for (const m of moves) {
      const g = groups.get(`${m.x},${m.y},${m.feature}`) ?? `${m.x},${m.y},${m.feature}`;
      if (!seen.has(g)) seen.set(g, []);
      seen.get(g).push(m);
    }
    d.segments = new Map([...seen.values()].map((ms) => [ms[0], ms]));
    moves = [...d.segments.keys()];
  }
  const markers = d.markersFor(game, moves);
  const bar = el('div', { class: 'actions', dataset: { decision: 'open_gift' } },
    el('span', { class: 'prompt' }, `${cardName(card)}: ${CARD_HELP[card]}. Tap a target on the board or choose here:`),
    d.groupButtons(moves),
    el('button', { type: 'button', dataset: { action: 'cancel' }, onclick: () => { d.own.card = null; d.group = null; d.changed(); } }, 'Cancel'));
  d.segments = null;
  return { ui: { markers, focus: 'markers' }, bar };
}

// A button per kind of card the seat may open; one without a target opens at once.
function cardButtons(d, game, legal) {
  const gifts = legal.filter((m) => m.type === 'open_gift');
  const kinds = [...new Set(gifts.map((m) => m.card))];
  if (!kinds.length) return null;
  return {
    types: ['open_gift'],
    buttons: el('span', { class: 'group gifts' }, 'or open a gift:', kinds.map((card) => {
      const moves = gifts.filter((m) => m.card === card);
      const targetless = moves.length === 1 && moves[0].x === undefined;
      return el('button', {
        type: 'button', title: CARD_HELP[card], disabled: d.busy, dataset: { action: 'open_gift', card },
        onclick: () => { if (targetless) d.play(moves[0]); else { d.own.card = card; d.changed(); } },
      }, cardName(card));
    })),
  };
}

export const gifts = {
  id: 'gifts',
  order: 2,
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
  actions: {
    placeTile: (d, game, legal) => (d.own.card ? cardTargets(d, game, legal.filter((m) => m.type === 'open_gift' && m.card === d.own.card)) : null),
    placeTileButtons: cardButtons,
    prompts: { choose_tile: () => 'Take 2: which tile will you place?' },
    choiceButtons: {
      choose_tile: (d, game, legal) => legal.map((m) => (m.type === 'choose_tile'
        ? el('span', { class: 'choice-tile' }, tilePicture(m.index === 0 ? game.tile : game.extra_tile, 0, 64), d.button(m))
        : d.button(m))),
    },
    // Road Sweeper's one target for a road of several segments; Change Position's two sides.
    words(d, m) {
      if (m.type !== 'open_gift' || m.x === undefined || m.feature === undefined) return undefined;
      const segments = d.segments?.get(m)?.length ?? 0;
      if (segments > 1) return `${cardName(m.card)} on the road of ${segments} tiles`;
      return m.to !== undefined ? describeMove(m, d.side(m), d.side(m, m.to)) : undefined;
    },
    // Change Position's marker is where the follower goes.
    markerFeature: { open_gift: (m) => (m.card === 'change_position' ? m.to : m.feature) },
    markerFigure: { open_gift: (m) => (m.card === 'synod' ? 'meeple' : null) },
  },
};

export default gifts;
