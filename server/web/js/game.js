// The game screen: the board with the action bar over it (under it on a phone), and beside
// it the players panel, the current tile, the event log and the chat. On a phone a score strip
// sits above the board and the panel is a sheet that slides up over it. Re-drawn from the view
// after every change.
import { el, clear } from './dom.js';
import { Board } from './board.js';
import { Decisions } from './actions.js';
import { renderPanel, finalScores } from './panel.js';
import { describeEvents } from './events_text.js';
import { GameLog } from './game_log.js';
import { tilePicture, tileType } from './tiles_svg.js';
import { tileWords } from './names.js';
import { playTurnSound } from './turn_sound.js';
import { showTurnSignal } from './turn_signal.js';
import { floatPoints } from './float_points.js';
import * as store from './store.js';
import { renderMatchBar, takeBackPart } from './clocks.js';
import { renderStrip } from './strip.js';

export class GameScreen {
  constructor(conn) {
    this.conn = conn;
    this.board = new Board();
    this.decisions = new Decisions((move) => this.sendMove(move));
    this.board.addEventListener('square', (e) => this.decisions.onSquare?.(e.detail));
    this.board.addEventListener('marker', (e) => this.decisions.onMarker?.(e.detail));
    this.bar = el('div', { class: 'bar-slot' });
    this.board.node.append(this.bar);
    // The bar covers the board's bottom on a wide screen (the board leaves room for it); on a
    // phone it sits under the board and covers nothing.
    this.board.bottomInset = () => (getComputedStyle(this.bar.firstChild ?? this.bar).position === 'absolute' ? this.bar.firstChild.offsetHeight + 12 : 0);
    this.panel = el('div');
    this.gameLog = new GameLog(conn);
    this.gameLog.addEventListener('locate', (e) => this.board.locate(e.detail));
    this.gameLog.addEventListener('loaded', () => { if (!this.replay && this.view) this.redraw(); });
    this.log = this.gameLog.node;
    this.now = el('div', { class: 'now', id: 'current-tile', 'aria-live': 'polite' });
    this.soundButton = el('button', { type: 'button', class: 'small sound', id: 'sound-toggle', 'aria-pressed': String(store.soundOn()), onclick: () => this.toggleSound() });
    this.toggleSound(false);
    this.wasMyTurn = false;
    // A new snapshot (a reconnection) may follow missed events: the log is rebuilt. A screen no
    // longer shown asks for nothing.
    conn.addEventListener('view', (e) => {
      if (e.detail.snapshot && this.view && this.node.isConnected) this.gameLog.reload(this.view.room.id, (s) => this.nameOf(s));
    });
    this.chatInput = el('input', { type: 'text', maxlength: 200, placeholder: 'say something', 'aria-label': 'chat message' });
    this.chatForm = el('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.sendChat(); } },
      this.chatInput, el('button', { type: 'submit' }, 'Send'));
    this.strip = el('div', { class: 'strip-slot' });
    // On a phone the panel, the log and the chat are a sheet over the board, opened from the
    // strip under the board and closed from its top; the fairness line (main.js) is in it too.
    this.sheetToggle = el('button', { type: 'button', class: 'sheet-toggle', id: 'sheet-toggle', 'aria-expanded': 'false', 'aria-controls': 'sheet',
      onclick: () => this.openSheet(true) }, '☰ Players & log');
    this.board.node.querySelector('.zoom').prepend(this.sheetToggle);
    this.node = el('div', { class: 'game' }, this.strip, this.board.node,
      el('aside', { class: 'side', id: 'sheet' },
        el('div', { class: 'sheet-head' }, el('button', { type: 'button', class: 'sheet-close', id: 'sheet-close', onclick: () => this.openSheet(false) }, '▾ Back to the board')),
        this.panel, el('div', { class: 'fair-slot' }),
        el('div', { class: 'log-head' }, el('h2', {}, 'Events'), this.soundButton), this.now, this.log, this.chatForm));
  }

  // The phone's sheet (a wide screen shows the panel beside the board, always).
  openSheet(open) {
    this.node.classList.toggle('sheet-open', open);
    this.sheetToggle.setAttribute('aria-expanded', String(open));
  }

  toggleSound(flip = true) {
    if (flip) store.setSoundOn(!store.soundOn());
    const on = store.soundOn();
    this.soundButton.setAttribute('aria-pressed', String(on));
    this.soundButton.textContent = on ? '♪ sound: on' : '♪ sound: off';
    this.soundButton.title = 'a chime when it is your turn';
  }

  nameOf(seat) {
    return this.view?.game?.players?.[seat]?.name ?? `seat ${seat}`;
  }

  update(view, events = []) {
    const first = !this.view;
    // At the end the sheet opens on a phone: the final scores, the replay, the rematch.
    if (view.game.status === 'finished' && (first || this.view.game.status !== 'finished')) this.openSheet(true);
    this.view = view;
    const game = view.game;
    this.gameLog.take(this.conn.seq, events, (s) => this.nameOf(s));
    if (first) this.gameLog.reload(view.room.id, (s) => this.nameOf(s));
    const mine = Array.isArray(game.legal_moves) && game.legal_moves.length > 0;
    if (mine && !this.wasMyTurn && !first && store.soundOn()) playTurnSound();
    this.wasMyTurn = mine;
    if (this.replay) return;  // the replay keeps the board until it is closed
    this.redraw();
    if (!first) floatPoints(events, this.board);
    this.chatForm.classList.toggle('hidden', typeof game.viewer !== 'number');
  }

  redraw() {
    const game = this.view.game;
    const { ui, bar } = this.decisions.build(game, { nameOf: (s) => this.nameOf(s), changed: () => this.redraw() });
    showTurnSignal(Array.isArray(game.legal_moves) && game.legal_moves.length > 0, this.view.room.name);
    bar.append(...takeBackPart(this.view, { conn: this.conn, nameOf: (s) => this.nameOf(s) }));
    clear(this.bar).append(bar);
    clear(this.strip).append(renderStrip(this.view, { nameOf: (s) => this.nameOf(s) }));
    this.board.render(game, ui);  // once the bar is in: the board leaves room for its height
    clear(this.panel).append(renderPanel(this.view, { me: game.viewer, breakdown: this.gameLog.complete ? this.gameLog.breakdown : null }));
    const match = renderMatchBar(this.view, { conn: this.conn, nameOf: (s) => this.nameOf(s) });
    if (match) this.panel.prepend(match);
    this.showNow(game);
    if (game.status === 'finished')
      this.panel.append(el('p', {}, el('button', { type: 'button', id: 'replay-open', onclick: () => this.showReplay(0) }, 'Replay the game move by move')));
  }

  // A finished game, move by move: each position comes from the server (the `replay` message),
  // as a spectator saw it, with the events of that move.
  async showReplay(move) {
    const answer = await this.conn.request({ type: 'replay', room: this.view.room.id, move }).catch(() => null);
    if (!answer || answer.type !== 'replay') {
      this.conn.notice(answer?.message ?? 'The replay could not be loaded.', 'error');
      return;
    }
    this.replay = answer;
    this.openSheet(false);
    const game = answer.game;
    const lines = describeEvents(answer.events, (s) => game.players?.[s]?.name ?? `seat ${s}`);
    const said = lines.map((l) => l.text).join(' ');
    // The log tells this move only (the game's log comes back when the replay is closed).
    this.log.classList.add('hidden');
    clear(this.now).append(el('ol', { class: 'log replay-log', id: 'replay-log' },
      lines.map((l) => el('li', { class: l.kind }, l.tile ? tilePicture(l.tile.id, l.tile.rotation ?? 0, 22) : null, el('span', {}, l.text)))));
    const step = (to) => el('button', { type: 'button', disabled: to < 0 || to > answer.moves, onclick: () => this.showReplay(to) });
    clear(this.bar).append(el('div', { class: 'actions replay' },
      step(0), step(move - 1), step(move + 1), step(answer.moves),
      el('span', { class: 'prompt', id: 'replay-position', dataset: { move, moves: answer.moves } }, `Move ${move} of ${answer.moves}. ${said}`),
      el('button', { type: 'button', id: 'replay-close', onclick: () => { this.replay = null; this.log.classList.remove('hidden'); this.redraw(); this.openSheet(true); } }, 'Close the replay')));
    const [first, back, next, last] = this.bar.querySelectorAll('button');
    first.textContent = '«'; first.title = 'the start'; first.id = 'replay-first';
    back.textContent = '◀'; back.title = 'one move back'; back.id = 'replay-back';
    next.textContent = '▶'; next.title = 'one move on'; next.id = 'replay-next';
    last.textContent = '»'; last.title = 'the end'; last.id = 'replay-last';
    for (const b of [first, back, next, last]) b.setAttribute('aria-label', b.title);
    // Each position fitted anew (its bar is in: the board leaves room for it).
    clear(this.strip).append(renderStrip({ room: this.view.room, game }, { nameOf: (s) => game.players?.[s]?.name ?? `seat ${s}`, clock: null }));
    this.board.render(game, this.decisions.waitingUi(game));
    this.board.fit(game, {});
    // The position replayed, under the game's final scores (kept in sight while stepping).
    clear(this.panel).append(finalScores(this.view.game, this.gameLog.complete ? this.gameLog.breakdown : null),
      el('h3', {}, `After move ${move}`), renderPanel({ room: this.view.room, game }, { me: 'spectator', final: false }));
  }

  // The tile being placed, beside the log: what it is and who places it.
  showNow(game) {
    const a = game.awaiting;
    if (game.status !== 'playing' || !game.tile || a?.decision !== 'place_tile') { clear(this.now); return; }
    const who = a.seat === game.viewer ? 'You place' : `${this.nameOf(a.seat)} places`;
    clear(this.now).append(tilePicture(game.tile, 0, 44), el('span', {}, `${who} ${tileWords(tileType(game.tile))}.`));
  }

  addChat(frame) {
    this.gameLog.addLine({ text: `${frame.name}: ${frame.text}`, kind: 'chat' });
  }

  async sendMove(move, retry = true) {
    let answer;
    try {
      answer = await this.conn.move(move);
    } catch {
      this.conn.notice('The connection dropped: your move may not have arrived. It will be shown when it did.', 'error');
      return;
    }
    if (answer.type !== 'error') return;
    if (answer.code === 'stale_sequence' && retry) {
      // Something else changed the room first (someone came to watch, say). Once the view has
      // caught up, the same move is sent again if it is still offered.
      await this.caughtUp();
      const same = JSON.stringify(move);
      if ((this.conn.view?.game?.legal_moves ?? []).some((m) => JSON.stringify(m) === same)) return this.sendMove(move, false);
      return;
    }
    this.conn.notice(answer.message, 'error');
  }

  caughtUp() {
    return new Promise((resolve) => {
      const done = () => { this.conn.removeEventListener('view', done); clearTimeout(timer); resolve(); };
      const timer = setTimeout(done, 2000);
      this.conn.addEventListener('view', done);
    });
  }

  async sendChat() {
    const text = this.chatInput.value.trim();
    if (!text) return;
    this.chatInput.value = '';
    const answer = await this.conn.request({ type: 'chat', text }).catch(() => null);
    if (answer?.type === 'error') this.conn.notice(answer.message, 'error');
  }
}
