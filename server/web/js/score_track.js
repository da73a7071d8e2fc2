// The score track, as on the real board: a row of 50 spaces, each seat's marker on its score
// (the lap after 50 shown as "+50" beside it); markers on one space stand side by side.
import { svg } from './dom.js';
import { seatColour } from './names.js';

const SPACES = 50, W = 300, STEP = W / SPACES;

export function scoreTrack(players) {
  const at = new Map();
  const spaceOf = (p) => ((p.score % SPACES) + SPACES) % SPACES;
  const stack = Math.max(1, ...[...players.reduce((m, p) => m.set(spaceOf(p), (m.get(spaceOf(p)) ?? 0) + 1), new Map()).values()]);
  const H = 16 + stack * 4.5 + (players.some((p) => p.score >= SPACES) ? 8 : 0);
  const marks = players.map((p) => {
    const space = spaceOf(p), lap = Math.floor(p.score / SPACES);
    const n = at.get(space) ?? 0;
    at.set(space, n + 1);
    const x = space * STEP + STEP / 2, y = 9 + n * 4.5;
    return svg('g', { class: 'track-mark', dataset: { seat: p.seat, space } },
      svg('circle', { cx: x, cy: y, r: 4.2, fill: seatColour(p.seat), stroke: '#fff', 'stroke-width': 1.2 }),
      lap ? svg('text', { x: x + 5, y: y + 10, class: 'track-lap', text: `+${lap * SPACES}` }) : null);
  });
  const ticks = [];
  for (let i = 0; i <= SPACES; i += 5) ticks.push(svg('line', { x1: i * STEP, x2: i * STEP, y1: 4, y2: i % 10 ? 8 : 12, class: 'track-tick' }));
  return svg('svg', { class: 'score-track', viewBox: `-6 0 ${W + 12} ${H}`, role: 'img', 'aria-label': `score track: ${players.map((p) => `${p.name ?? `seat ${p.seat}`} ${p.score}`).join(', ')}` },
    svg('rect', { x: 0, y: 4, width: W, height: 10, rx: 3, class: 'track-bg' }), ticks, marks);
}
