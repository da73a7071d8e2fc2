// Quick play (docs/web.md "Play now", docs/protocol.md §24): the lobby's Play now button and its
// chooser (time control, seats, best of, a bot after 30 s, rated), the search under way with its
// time and Cancel, and what a `match_found` says about the game it made ("Game 2 of best of 3").
import { el, clear } from './dom.js';
import { freshNonce } from './fairness.js';

const BOTS_AFTER_S = 30;

// The page's search: one at a time, as the server allows; it ends with a match, a cancel, or the
// connection that made it (the server drops a closed connection's seek).
export class QuickPlay extends EventTarget {
  constructor(conn) {
    super();
    this.conn = conn;
    this.since = null;  // performance.now() when the search started, or null
    this.nonce = null;  // the search's nonce (docs/fairness.md): its room's seat's
    // A socket closed, or a new one (a sign-in opens one): the server forgot the seek.
    conn.addEventListener('status', (e) => {
      if (e.detail.state === 'open' || this.since === null) return;
      this.stop();
      conn.notice('The connection was closed: the search for a game stopped. Press Play now again.', 'error');
    });
  }

  get seeking() { return this.since !== null; }

  // Ends the search; returns its nonce (for the room of its match), or null.
  stop() {
    const nonce = this.since === null ? null : this.nonce;
    this.since = null;
    this.nonce = null;
    this.dispatchEvent(new CustomEvent('change'));
    return nonce;
  }

  // Starts the search; resolves with null, or the words of the refusal.
  async seek(prefs) {
    try {
      if (!(await this.conn.signedIn())) return 'Not signed in yet: wait a moment and try again.';
      const nonce = freshNonce();
      const answer = await this.conn.request({ type: 'seek', ...prefs, nonce });
      if (answer.type !== 'seeking') return answer.message;
      this.nonce = nonce;
    } catch (e) {
      return `Not connected (${e.message}): try again.`;
    }
    this.since = performance.now();
    this.dispatchEvent(new CustomEvent('change'));
    return null;
  }

  // Cancels the search (a seek the server no longer has is over too).
  async cancel() {
    const answer = await this.conn.request({ type: 'cancel_seek' }).catch(() => null);
    if (answer && answer.type === 'error' && answer.code !== 'no_seek') this.conn.notice(answer.message, 'error');
    else this.stop();
  }
}

// The `seek` of the chooser's values: blitz|rapid|daily, 2–4 seats, best of 1|3|5 (2 seats),
// bots after 30 s or never, rated or not.
export function seekOf({ timeControl, seats, bestOf, bots, rated }) {
  const seek = { time_control: timeControl, seats, rated };
  if (seats === 2) seek.best_of = bestOf;
  if (bots) seek.bots_after_s = BOTS_AFTER_S;
  return seek;
}

// What a seat the server arranged is part of, in words ("Game 2 of best of 3", "Round 2 of the
// tournament"), or ''. `arranged`: the match_found's series, game, best_of, tournament, round.
export function arrangedText(arranged) {
  if (!arranged) return '';
  const parts = [];
  if (arranged.round) parts.push(`Round ${arranged.round}`);
  if (arranged.series) parts.push(`Game ${arranged.game} of best of ${arranged.best_of}`);
  return parts.join(', ');
}

// The fields of a match_found worth keeping with its seat (store.js).
export function arrangedOf(m) {
  const a = {};
  for (const k of ['series', 'game', 'best_of', 'tournament', 'round', 'time_control']) if (m[k] !== undefined && m[k] !== '') a[k] = m[k];
  return a;
}

const clockText = (ms) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

// The lobby's card: Play now, the chooser it opens, the search under way.
export function playNowCard(quick) {
  const node = el('section', { class: 'card wide play-now', id: 'play-now-card' });
  let open = false, timer = null;
  const error = el('p', { class: 'error-text', role: 'alert', id: 'seek-error' });
  const choose = (id, label, values, chosen) => el('label', {}, label,
    el('select', { id, 'aria-label': label }, values.map(([v, words]) => el('option', { value: v, selected: v === chosen }, words))));
  const form = el('form', { id: 'play-now-form', onsubmit: async (e) => {
    e.preventDefault();
    const find = form.querySelector('#find-game');
    find.disabled = true;
    error.textContent = '';
    const message = await quick.seek(seekOf({
      timeControl: form.querySelector('#qp-time').value,
      seats: Number(form.querySelector('#qp-seats').value),
      bestOf: Number(form.querySelector('#qp-best-of').value),
      bots: form.querySelector('#qp-bots').checked,
      rated: form.querySelector('#qp-rated').checked,
    }));
    find.disabled = false;
    if (message) error.textContent = message;
  } },
  el('div', { class: 'form-row' },
    choose('qp-time', 'Time', [['blitz', 'blitz (5 min + 5 s)'], ['rapid', 'rapid (10 min + 10 s)'], ['daily', 'daily (a day a turn)']], 'rapid'),
    choose('qp-seats', 'Players', [['2', '2'], ['3', '3'], ['4', '4']], '2'),
    el('span', { class: 'qp-best-of' }, choose('qp-best-of', 'Best of', [['1', '1 game'], ['3', '3 games'], ['5', '5 games']], '1'))),
  el('div', { class: 'form-row' },
    el('label', {}, el('input', { type: 'checkbox', id: 'qp-bots' }), `play a bot if nobody comes in ${BOTS_AFTER_S} s`),
    el('label', {}, el('input', { type: 'checkbox', id: 'qp-rated', checked: true }), 'rated')),
  el('div', { class: 'form-row' }, el('button', { type: 'submit', class: 'primary', id: 'find-game' }, 'Find a game')));
  // A series is two players' only.
  form.querySelector('#qp-seats').addEventListener('change', (e) => {
    form.querySelector('.qp-best-of').classList.toggle('hidden', e.target.value !== '2');
  });

  function draw() {
    clearInterval(timer);
    timer = null;
    if (quick.seeking) {
      const time = el('span', { id: 'seek-time' });
      const tick = () => { time.textContent = clockText(performance.now() - quick.since); };
      tick();
      timer = setInterval(() => { if (!node.isConnected) clearInterval(timer); else tick(); }, 1000);
      clear(node).append(el('h2', {}, 'Play now'),
        el('div', { class: 'form-row seeking', id: 'seeking', role: 'status' },
          el('span', {}, 'Looking for opponents… (', time, ')'),
          el('button', { type: 'button', id: 'cancel-seek', onclick: () => quick.cancel() }, 'Cancel')), error);
      return;
    }
    clear(node).append(el('div', { class: 'form-row' },
      el('button', { type: 'button', class: 'primary play-now-button', id: 'play-now', 'aria-expanded': String(open),
        onclick: () => { open = !open; draw(); } }, 'Play now'),
      el('span', { class: 'muted' }, 'a game with whoever is looking too')),
    ...(open ? [form] : []), error);
  }
  const onChange = () => { if (node.isConnected) draw(); else quick.removeEventListener('change', onChange); };
  quick.addEventListener('change', onChange);
  draw();
  return node;
}
