// The game screen: the board with the action bar over it, and beside it (under it on a phone)
// the players panel, the event log and the chat. Re-drawn from the view after every change.
import { el, clear } from './dom.js';
import { Board } from './board.js';
import { Decisions } from './actions.js';
import { renderPanel } from './panel.js';
import { describeEvents } from './events_text.js';
import { renderMatchBar } from './clocks.js';

const MAX_LOG = 300;

export class GameScreen {
  constructor(conn) {
    this.conn = conn;
    this.board = new Board();
    this.decisions = new Decisions((move) => this.sendMove(move));
    this.board.addEventListener('square', (e) => this.decisions.onSquare?.(e.detail));
    this.board.addEventListener('marker', (e) => this.decisions.onMarker?.(e.detail));
    this.bar = el('div');
    this.board.node.append(this.bar);
    this.panel = el('div');
    this.log = el('ol', { class: 'log', 'aria-live': 'polite' });
    this.chatInput = el('input', { type: 'text', maxlength: 200, placeholder: 'say something', 'aria-label': 'chat message' });
    this.chatForm = el('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.sendChat(); } },
      this.chatInput, el('button', { type: 'submit' }, 'Send'));
    this.node = el('div', { class: 'game' }, this.board.node,
      el('aside', { class: 'side' }, this.panel, el('h2', {}, 'Events'), this.log, this.chatForm));
  }

  nameOf(seat) {
    return this.view?.game?.players?.[seat]?.name ?? `seat ${seat}`;
  }

  update(view, events = []) {
    this.view = view;
    const game = view.game;
    for (const line of describeEvents(events, (s) => this.nameOf(s))) this.addLog(line.text, line.kind);
    if (this.replay) return;  // the replay keeps the board until it is closed
    this.redraw();
    this.chatForm.classList.toggle('hidden', typeof game.viewer !== 'number');
  }

  redraw() {
    const game = this.view.game;
    const { ui, bar } = this.decisions.build(game, { nameOf: (s) => this.nameOf(s), changed: () => this.redraw() });
    this.board.render(game, ui);
    document.title = game.legal_moves ? 'Your turn — Carcassonne' : `${this.view.room.name} — Carcassonne`;
    clear(this.bar).append(bar);
    clear(this.panel).append(renderPanel(this.view, { me: game.viewer }));
    const match = renderMatchBar(this.view, { conn: this.conn, nameOf: (s) => this.nameOf(s) });
    if (match) this.panel.prepend(match);
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
    const game = answer.game;
    this.board.render(game, this.decisions.waitingUi(game));
    const said = describeEvents(answer.events, (s) => game.players?.[s]?.name ?? `seat ${s}`).map((l) => l.text).join(' ');
    const step = (to) => el('button', { type: 'button', disabled: to < 0 || to > answer.moves, onclick: () => this.showReplay(to) });
    clear(this.bar).append(el('div', { class: 'actions replay' },
      step(0), step(move - 1), step(move + 1), step(answer.moves),
      el('span', { class: 'prompt', id: 'replay-position', dataset: { move, moves: answer.moves } }, `Move ${move} of ${answer.moves}. ${said}`),
      el('button', { type: 'button', id: 'replay-close', onclick: () => { this.replay = null; this.redraw(); } }, 'Close the replay')));
    const [first, back, next, last] = this.bar.querySelectorAll('button');
    first.textContent = '«'; first.title = 'the start'; first.id = 'replay-first';
    back.textContent = '◀'; back.title = 'one move back'; back.id = 'replay-back';
    next.textContent = '▶'; next.title = 'one move on'; next.id = 'replay-next';
    last.textContent = '»'; last.title = 'the end'; last.id = 'replay-last';
    clear(this.panel).append(renderPanel({ room: this.view.room, game }, { me: 'spectator' }));
  }

  addLog(text, kind = 'event') {
    this.log.append(el('li', { class: kind }, text));
    while (this.log.children.length > MAX_LOG) this.log.firstChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  addChat(frame) {
    this.addLog(`${frame.name}: ${frame.text}`, 'chat');
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
