// Hills & Sheep on the page: each seat's shepherd, the sheep bag, and the flocks on the board.
import { svg } from './dom.js';
import { featurePoint, sheepShape } from './tiles_svg.js';

export const hillsAndSheep = {
  id: 'hills_and_sheep',
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
};
