// Easter on the page: each seat's eggs (in the panel and the final scores), the bunny and its
// path on the board; in the action bar, the bunny's paths with a marker where each one ends.
import { el, svg } from './dom.js';
import { describeMove } from './moves_text.js';
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

// The bunny decision: a marker where each path ends, the paths drawn, a button per path.
function moveTheBunny(d, game, legal) {
  const go = game.bunny_go;
  const start = go?.visited?.[go.visited.length - 1] ?? (game.bunny ? [game.bunny.x, game.bunny.y] : null);
  d.own.bunnyStart = start;
  const groups = d.groupMarkers(legal.filter((m) => m.type === 'bunny'), (m) => {
    const end = m.path[m.path.length - 1];
    return `bunny:${end[0]}:${end[1]}`;
  });
  const markers = [...groups.keys()].map((key) => {
    const [, x, y] = key.split(':').map(Number);
    // Where the bunny figure stands on a square (drawFigures below), not over the figures.
    const g = groups.get(key);
    return { key, keys: key, px: x * 100 + 80, py: y * 100 + 22, kind: 'bunny', count: g.length, selected: key === d.group, label: `the bunny: ${g.map((m) => bunnyWay(m.path, start)).join(' / ')}` };
  });
  const chosen = d.group ? groups.get(d.group) ?? [] : [];
  const paths = [...groups.values()].flat().map((m) => ({ points: start ? [start, ...m.path] : m.path, choice: chosen.includes(m) }));
  const roll = go?.roll;
  const bar = el('div', { class: 'actions', dataset: { decision: 'bunny' } },
    el('span', { class: 'prompt' }, `Move the bunny${roll ? ` ${roll} ${roll === 1 ? 'hop' : 'hops'}` : ''}: click where it lands, or choose a path:`),
    el('span', { class: 'group' }, chosen.map((m) => d.button(m, { class: 'primary selected' }))), otherPaths(d, legal.filter((m) => !chosen.includes(m)), chosen.length));
  return { ui: { markers, paths, focus: 'markers' }, bar };
}

// The paths not chosen on the board: buttons, folded away when there are many (the board's
// circles show them; a long list would cover the board on a phone).
function otherPaths(d, moves, chosen) {
  const buttons = el('span', { class: 'group' }, moves.map((m) => d.button(m)));
  if (moves.length <= 3) return buttons;
  return el('details', { class: 'all-choices' }, el('summary', {}, `Show ${chosen ? 'the other' : 'all'} ${moves.length} paths as buttons ▾`), buttons);
}

export const easter = {
  id: 'easter',
  order: 1,
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
  // Extra rows of the final scores: [heading, cell(player)] (the eggs' points have their own).
  finalColumns: (game) => (game.eggs ? [['eggs collected', (p) => String(game.eggs[p.seat])]] : []),
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
  actions: {
    decide: { bunny: moveTheBunny },
    // A path in directions from where the bunny stands.
    words: (d, m) => (m.type === 'bunny' ? describeMove(m, d.own.bunnyStart) : undefined),
  },
};

export default easter;
