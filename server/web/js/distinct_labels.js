// Two controls that play different moves never read the same. Labels name a feature by its kind
// and side of its tile ("Follower on the field (north)"), which is not always enough: two
// monasteries on the board for Synod, two roads for Road Sweeper, two fields both to the north.
// Those of one label are then told apart by where they lie from one another ("the west one"),
// and when that is not enough, by their order across the board ("2nd from the west").
import { featurePoint } from './tiles_svg.js';

const COMPASS = ['east', 'south-east', 'south', 'south-west', 'west', 'north-west', 'north', 'north-east'];
const ordinal = (n) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

// Where a move acts on the board (SVG units), or null.
export function pointOf(m, game) {
  if (m.type === 'bunny' && m.path?.length) { const [x, y] = m.path[m.path.length - 1]; return [x * 100 + 50, y * 100 + 50]; }
  if (m.x === undefined || m.y === undefined) return null;
  const tile = game.board.find((t) => t.x === m.x && t.y === m.y);
  const feature = m.card === 'change_position' ? m.to : m.feature;
  return tile && feature !== undefined ? featurePoint(m.x, m.y, tile.tile, tile.rotation, feature) : [m.x * 100 + 50, m.y * 100 + 50];
}

// points: [[x, y] | null] of controls that share one label -> the words that set each apart.
export function qualifiers(points) {
  if (points.some((p) => !p)) return points.map((_, i) => `choice ${i + 1}`);
  const cx = points.reduce((a, p) => a + p[0], 0) / points.length, cy = points.reduce((a, p) => a + p[1], 0) / points.length;
  const sides = points.map(([x, y]) => (Math.hypot(x - cx, y - cy) < 8 ? 'middle' : COMPASS[(Math.round(Math.atan2(y - cy, x - cx) / (Math.PI / 4)) + 8) % 8]));
  if (new Set(sides).size === sides.length) return sides.map((s) => `the ${s} one`);
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const across = Math.max(...xs) - Math.min(...xs) >= Math.max(...ys) - Math.min(...ys);
  const [a, b, from] = across ? [0, 1, 'west'] : [1, 0, 'north'];
  const order = points.map((p, i) => i).sort((i, j) => points[i][a] - points[j][a] || points[i][b] - points[j][b]);
  const words = [];
  order.forEach((i, k) => { words[i] = `${ordinal(k + 1)} from the ${from}`; });
  return words;
}

// items: [{label, move (a key: the same move may be shown twice), point}] -> the labels, each
// label shared by different moves completed with its qualifier.
export function distinctLabels(items) {
  const byLabel = new Map();
  items.forEach((it, i) => { if (!byLabel.has(it.label)) byLabel.set(it.label, []); byLabel.get(it.label).push(i); });
  const out = items.map((it) => it.label);
  for (const [label, idx] of byLabel) {
    const moves = [...new Set(idx.map((i) => items[i].move))];
    if (moves.length < 2) continue;
    const words = qualifiers(moves.map((mv) => items[idx.find((i) => items[i].move === mv)].point));
    for (const i of idx) out[i] = `${label}, ${words[moves.indexOf(items[i].move)]}`;
  }
  return out;
}

// The action bar's move buttons, relabelled where two different moves read the same.
export function distinctButtons(bar, game) {
  const buttons = [...bar.querySelectorAll('button[data-move]')];
  const labels = distinctLabels(buttons.map((b) => ({ label: b.textContent, move: b.dataset.move, point: pointOf(JSON.parse(b.dataset.move), game) })));
  buttons.forEach((b, i) => { if (b.textContent !== labels[i]) b.textContent = labels[i]; });
}
