// The game screen: the board with the action bar over it, and beside it (under it on a phone)
// the players panel, the event log and the chat. Re-drawn from the view after every change.
import { el, clear } from './dom.js';
import { Board } from './board.js';
import { Decisions } from './actions.js';
import { renderPanel } from './panel.js';
import { describeEvents } from './events_text.js';

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
