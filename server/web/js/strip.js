// The score strip above the board on a phone (hidden on a wide screen, where the panel beside
// the board shows the same): each seat's colour, name, score and clock, whose turn it is (▶)
// and who must act (outlined), and the tiles left. The clocks tick with the match bar's
// (clocks.js).
import { el } from './dom.js';
import { seatColour } from './names.js';
import { clockText } from './clocks.js';

export function renderStrip(view, { nameOf, clock = view.room?.clock }) {
  const game = view.game;
  const me = typeof game.viewer === 'number' ? game.viewer : null;
  const seats = game.players.map((p) => {
    const active = game.active === p.seat && game.status === 'playing';
    const toAct = game.awaiting?.seat === p.seat && game.status === 'playing';
    const ms = clock?.remaining_ms?.[p.seat];
    const running = clock?.running === p.seat;
    return el('li', {
      class: `strip-seat${active ? ' active' : ''}${toAct ? ' to-act' : ''}`,
      dataset: { seat: p.seat, ...(ms !== undefined ? { running, remaining: ms } : {}) },
      title: `${nameOf(p.seat)}${p.seat === me ? ' (you)' : ''}: ${p.score} points`,
    },
    el('span', { class: 'swatch', style: `background:${seatColour(p.seat)}` }),
    el('span', { class: 'strip-name' }, active ? '▶ ' : '', p.seat === me ? 'You' : nameOf(p.seat)),
    el('span', { class: 'strip-score', dataset: { score: p.score } }, String(p.score)),
    ms !== undefined ? el('span', { class: 'time' }, clockText(ms)) : null);
  });
  return el('ul', { class: 'strip', id: 'strip', 'aria-label': 'scores' }, seats,
    game.status === 'playing' ? el('li', { class: 'strip-info muted' }, `${game.tiles_left} left`) : null);
}
