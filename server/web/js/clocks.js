// The match bar of the game screen (docs/protocol.md §21): every seat's clock, the running one
// counting down locally from the view's `remaining_ms` (as of conn.clockAt), resign with a
// confirmation and the rematch offer; take-backs (Undo, a request and its answers) for the
// action bar.
import { el } from './dom.js';
import { seatColour } from './names.js';
import { rematchNonce } from './fairness.js';

let received = 0;      // when the clock values shown were read (ms, performance.now)
let ticker = null;     // one interval for the whole page

export const clockText = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
};

function tick() {
  for (const node of document.querySelectorAll('.match-clock[data-running="true"], .strip-seat[data-running="true"]')) {
    const left = Number(node.dataset.remaining) - (performance.now() - received);
    node.querySelector('.time').textContent = clockText(left);
    node.classList.toggle('low', left < 10000);
  }
}

const asker = (conn) => async (request) => {
  const answer = await conn.request(request).catch((e) => ({ type: 'error', message: e.message }));
  if (answer.type === 'error') conn.notice(answer.message, 'error');
};

// Take-backs, in the action bar (in sight on every screen): Undo while the seat decides on a
// figure for the tile it has just placed (what the engine lets a seat take back, in practice:
// at the start of a turn there is nothing of its own, and later steps follow a draw), and
// an open request with Allow and Refuse for the seats asked, or who it waits for.
// ctx: {conn, nameOf(seat)}; returns the elements to add to the bar (maybe none).
export function takeBackPart(view, { conn, nameOf }) {
  const room = view.room, game = view.game;
  const me = typeof game.viewer === 'number' ? game.viewer : null;
  const ask = asker(conn);
  const parts = [];
  const req = room.undo_request;
  if (req) {
    if (req.waiting.includes(me))
      parts.push(el('p', { class: 'undo-request asked', id: 'undo-request', role: 'alert' }, `${nameOf(req.seat)} asks to take back a move. `,
        el('button', { type: 'button', class: 'primary', id: 'undo-accept', onclick: () => ask({ type: 'undo_answer', accept: true }) }, 'Allow'),
        el('button', { type: 'button', id: 'undo-refuse', onclick: () => ask({ type: 'undo_answer', accept: false }) }, 'Refuse')));
    else
      parts.push(el('p', { class: 'undo-request', id: 'undo-request', role: 'status' },
        req.seat === me ? 'You asked to take back your move' : `${nameOf(req.seat)} asked to take back a move`,
        `: waiting for ${req.waiting.map((s) => (s === me ? 'you' : nameOf(s))).join(', ')}.`));
  }
  const forfeited = (game.forfeited ?? []).includes(me);
  if (me !== null && game.status === 'playing' && !forfeited && room.match?.undo !== 'off' && !req
      && game.awaiting?.seat === me && game.awaiting.decision === 'figure')
    parts.push(el('button', { type: 'button', id: 'undo', class: 'undo', title: 'ask to take back the move you made this turn', onclick: () => ask({ type: 'undo' }) }, 'Undo'));
  return parts;
}

// ctx: {conn, nameOf(seat)}; returns the bar, or null when the room has nothing of the kind.
export function renderMatchBar(view, { conn, nameOf }) {
  const room = view.room, game = view.game;
  const me = typeof game.viewer === 'number' ? game.viewer : null;
  const forfeited = new Set(game.forfeited ?? []);
  const ask = asker(conn);
  const parts = [];
  if (room.clock) {
    received = conn.clockAt ?? performance.now();
    parts.push(el('ul', { class: 'match-clocks' }, room.clock.remaining_ms.map((ms, seat) =>
      el('li', { class: `match-clock${room.clock.running === seat ? ' running' : ''}`, dataset: { seat, running: room.clock.running === seat, remaining: ms } },
        el('span', { class: 'swatch', style: `background:${seatColour(seat)}` }),
        el('span', { class: 'name' }, nameOf(seat), forfeited.has(seat) ? ' (left)' : ''),
        el('span', { class: 'time' }, clockText(ms))))));
    if (!ticker) ticker = setInterval(tick, 250);
  }
  if (forfeited.size && !room.clock)
    parts.push(el('p', { class: 'muted', id: 'forfeited' }, `Left the game: ${[...forfeited].map(nameOf).join(', ')}`));
  const buttons = [];
  if (me !== null && game.status === 'playing' && !forfeited.has(me)) {
    buttons.push(el('button', { type: 'button', id: 'resign', onclick: () => {
      if (confirm('Resign? Your turns are skipped and you score no more points.')) ask({ type: 'resign' });
    } }, 'Resign'));
  }
  if (me !== null && game.status === 'finished') {
    const offer = room.rematch;
    // Every answer that accepts carries this page's nonce for the rematch's seed (fairness.md).
    const accept = () => ask({ type: 'rematch', accept: true, nonce: rematchNonce(room.id, room.fairness?.rematch_commitment) });
    const answered = offer && (offer.accepted.includes(me) || offer.declined.includes(me));
    if (offer?.room) parts.push(el('p', { id: 'rematch-room' }, 'The rematch is ready.'));
    else if (!offer) buttons.push(el('button', { type: 'button', id: 'rematch', onclick: accept }, 'Offer a rematch'));
    else if (!answered)
      parts.push(el('p', { id: 'rematch-offer' }, 'A rematch is offered. ',
        el('button', { type: 'button', id: 'rematch-accept', onclick: accept }, 'Play again'),
        el('button', { type: 'button', id: 'rematch-decline', onclick: () => ask({ type: 'rematch', accept: false }) }, 'No thanks')));
    else parts.push(el('p', { class: 'muted', id: 'rematch-offer' }, `Rematch: ${offer.accepted.map(nameOf).join(', ')} in; waiting for the others.`));
  }
  if (buttons.length) parts.push(el('div', { class: 'form-row match-buttons' }, buttons));
  return parts.length ? el('section', { class: 'match', id: 'match' }, parts) : null;
}

// What a room's match options say, in a few words, for the lobby and the waiting room.
export function matchSummary(match) {
  if (!match) return '';
  const clock = {
    none: '',
    fischer: `${Math.round(match.initial_s / 60)} min + ${match.increment_s} s`,
    per_decision: `${match.decision_s} s per decision`,
    correspondence: `${match.move_hours} h per move`,
  }[match.clock] ?? '';
  const parts = [];
  if (clock) parts.push(`${clock} (then ${match.timeout === 'forfeit' ? 'forfeit' : 'a bot plays'})`);
  if (match.undo !== 'consent') parts.push(`undo ${match.undo}`);
  return parts.join(', ');
}

// The create form's match options: {node, value()} where value() is create_room's `match`, or
// undefined for the defaults.
export function matchForm() {
  const clock = el('select', { id: 'match-clock', 'aria-label': 'time control' },
    [['none', 'no clock'], ['fischer', 'Fischer'], ['per_decision', 'per decision'], ['correspondence', 'correspondence']]
      .map(([v, label]) => el('option', { value: v }, label)));
  const num = (id, value, label) => el('label', {}, label, el('input', { type: 'number', id, value, min: 0, style: 'width:5em' }));
  const minutes = num('match-minutes', 10, 'minutes'), increment = num('match-increment', 20, '+ seconds');
  const decision = num('match-decision', 60, 'seconds'), hours = num('match-hours', 24, 'hours');
  const timeout = el('select', { id: 'match-timeout', 'aria-label': 'on timeout' },
    el('option', { value: 'bot' }, 'a bot plays'), el('option', { value: 'forfeit' }, 'forfeit'));
  const undo = el('select', { id: 'match-undo', 'aria-label': 'undo' },
    el('option', { value: 'consent' }, 'undo with consent'), el('option', { value: 'free' }, 'free undo'), el('option', { value: 'off' }, 'no undo'));
  const fields = { fischer: [minutes, increment], per_decision: [decision], correspondence: [hours] };
  const sync = () => {
    for (const [k, list] of Object.entries(fields)) for (const f of list) f.classList.toggle('hidden', clock.value !== k);
    timeout.classList.toggle('hidden', clock.value === 'none');
  };
  clock.addEventListener('change', sync);
  sync();
  const read = (label) => Number(label.querySelector('input').value) || 0;
  return {
    node: el('div', { class: 'form-row' }, el('label', {}, 'Clock ', clock), minutes, increment, decision, hours, timeout, undo),
    value() {
      const m = { clock: clock.value, undo: undo.value };
      if (clock.value === 'fischer') Object.assign(m, { initial_s: Math.max(1, read(minutes) * 60), increment_s: read(increment) });
      if (clock.value === 'per_decision') m.decision_s = Math.max(1, read(decision));
      if (clock.value === 'correspondence') m.move_hours = Math.max(1, read(hours));
      if (clock.value !== 'none') m.timeout = timeout.value;
      return clock.value === 'none' && undo.value === 'consent' ? undefined : m;
    },
  };
}
