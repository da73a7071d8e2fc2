// Hills & Sheep on the page: each seat's shepherd, the sheep bag, and the flocks on the board.
import { svg } from './dom.js';
import { featurePoint, sheepShape } from './tiles_svg.js';
import { plural } from './names.js';

export const TOKENS = { sheep1: '1 sheep', sheep2: '2 sheep', sheep3: '3 sheep', sheep4: '4 sheep', wolf: 'the wolf' };

export const hillsAndSheep = {
  id: 'hills_and_sheep',
  order: 0,
  events: {
    tile_hidden: () => 'A tile went face down under the hill.',
    token_drawn: (e, { who }) => `${who} drew ${TOKENS[e.token] ?? e.token} from the bag.`,
    flock_scored: (e) => `A flock of ${plural(e.points, 'sheep', 'sheep')} went to the stable.`,
    flock_lost: (e, { at }) => `The wolf took the flock${at(e)}!`,
  },
  reasons: { flock: (who, pts) => `${who}'s flock scored ${pts}.` },
  moves: { flock: (m) => (m.choice === 'expand' ? 'Grow the flock (draw a token)' : 'Gather the flock (score it)') },
  decisions: { flock: 'choose Grow or Gather' },
  figures: {
    shepherd: {
      word: 'shepherd',
      deployed: (who, at) => `${who} put the shepherd in a field${at}.`,
      deploy: (on) => `Shepherd in the field${on}`,
    },
  },
  tileSymbols: (type) => [type.hill && 'hill', type.vineyard && 'vineyard'].filter(Boolean),
  seatDetails: (game, p, el) => (p.supply?.shepherd !== undefined ? [el('span', {}, p.supply.shepherd ? 'shepherd in supply' : 'shepherd on the board')] : []),
  gameInfo: (game) => (game.bag !== undefined ? [`${game.bag} in the sheep bag`] : []),
  // board: {tiles, layers, grow, unit}
  drawFigures(game, board) {
    for (const flock of game.flocks ?? []) {
      const t = board.tiles.get(`${flock.x},${flock.y}`);
      if (!t) continue;
      const [px, py] = featurePoint(flock.x, flock.y, t.tile, t.rotation, flock.feature);
      board.layers.figures.append(svg('g', { transform: `translate(${px + 14 * board.grow} ${py + 10 * board.grow}) scale(${board.grow})`, class: 'flock' },
        svg('title', { text: `flock: ${flock.sheep} sheep` }), sheepShape(flock.sheep)));
    }
  },
  actions: { prompts: { flock: () => 'Your shepherd’s field grew: Grow or Gather?' } },
};

export default hillsAndSheep;
