// Easter on the page: each seat's eggs (in the panel and the final scores), the bunny and its
// path on the board.
import { svg } from './dom.js';
import { bunnyShape } from './tiles_svg.js';
import { plural } from './names.js';

// The bunny's hops as directions from `start` ([x, y]): "north, east".
export function bunnyWay(path, start) {
  if (!start) return `${path.length} ${path.length === 1 ? 'hop' : 'hops'}`;
  const hops = [];
  let [x0, y0] = start;
  for (const [x, y] of path) {
    hops.push(y < y0 ? 'north' : y > y0 ? 'south' : x > x0 ? 'east' : x < x0 ? 'west' : 'stay');
    [x0, y0] = [x, y];
  }
  return hops.join(', then ');
}

export const easter = {
  id: 'easter',
  events: {
    bunny_placed: (e, { who, at }) => `The bunny hopped onto ${who}'s tile${at(e)}.`,
    nest_scored: (e, { who, at }) => `${who} surrounded the nest${at(e)}.`,
    die_rolled: (e, { who }) => `${who} rolled ${e.roll} for the bunny.`,
    bunny_moved: (e, { who }) => `${who} moved the bunny.`,
    eggs_collected: (e, { who }) => `${who} collected ${plural(e.eggs, 'egg')}.`,
    bunny_stuck: (e, { who }) => `The bunny is stuck: ${who}'s go is skipped.`,
  },
  reasons: { eggs: (who, pts) => `${who} scored ${pts} for eggs.` },
  moves: { bunny: (m, on, toSide, side) => `Bunny: ${bunnyWay(m.path, side)}` },
  decisions: { bunny: 'move the bunny' },
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
