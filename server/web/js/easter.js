// Easter on the page: each seat's eggs (in the panel and the final scores), the bunny and its
// path on the board.
import { svg } from './dom.js';
import { bunnyShape } from './tiles_svg.js';
import { plural } from './names.js';

export const easter = {
  id: 'easter',
  seatDetails: (game, p, el) => (game.eggs ? [el('span', { class: 'eggs' }, plural(game.eggs[p.seat], 'egg'))] : []),
  // Extra columns of the final scores: [heading, cell(player)].
  finalColumns: (game) => (game.eggs ? [['eggs', (p) => String(game.eggs[p.seat])]] : []),
  drawFigures(game, board) {
    const U = board.unit;
    if (game.bunny) {
      board.layers.figures.append(svg('g', { class: 'bunny-figure', transform: `translate(${game.bunny.x * U + 80} ${game.bunny.y * U + 22}) scale(${board.grow})` },
        svg('title', { text: 'the bunny' }), svg('circle', { r: 13, fill: 'rgba(255,255,255,.75)' }), bunnyShape(1.2)));
    }
    if (game.bunny_go?.visited?.length > 1) {
      const pts = game.bunny_go.visited.map(([x, y]) => `${x * U + 50},${y * U + 50}`).join(' ');
      board.layers.figures.append(svg('polyline', { class: 'bunny-path', points: pts }));
    }
  },
};
