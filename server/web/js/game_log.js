// The event log: each change's events in words, with small pictures of the tiles named, and
// the running score breakdown. After a reload (or any new snapshot) it is rebuilt from the
// server's `history` answer (docs/protocol.md), page by page, then the live events that came
// after the history's `seq` follow.
import { el, clear } from './dom.js';
import { describeEvents } from './events_text.js';
import { tilePicture } from './tiles_svg.js';
import { ScoreBreakdown } from './score_breakdown.js';

const MAX_LOG = 300;
// The room's own events (docs/protocol.md §8 "Room events"): a change with only these is no move.
const ROOM_EVENTS = new Set(['undo_requested', 'undo_answered', 'undo_declined', 'undo_done',
  'timed_out', 'forfeited', 'rematch_offered']);

export class GameLog extends EventTarget {
  constructor(conn) {
    super();
    this.conn = conn;
    this.node = el('ol', { class: 'log', 'aria-live': 'polite' });
    this.breakdown = new ScoreBreakdown();
    this.complete = false;   // the breakdown holds every event of the game
    this.live = [];          // [{seq, events}] heard while the history loads
    this.loading = null;
    this.moves = [];         // the lines of the last moves, newest last (a take-back strikes one)
  }

  // The events of one patch, numbered by its seq.
  take(seq, events, nameOf) {
    if (this.loading) { this.live.push({ seq, events }); return; }
    this.breakdown.add(events);
    this.lines(events, nameOf);
  }

  lines(events, nameOf) {
    // A take-back's move is the last change that had events of the game: its lines stay, struck
    // out, and the take-back's own line says so.
    if (events.some((e) => e.type === 'undo_done')) {
      for (const li of this.moves.pop() ?? []) {
        li.classList.add('taken-back');
        li.title = 'taken back';
        li.append(el('em', { class: 'taken-back-mark' }, 'taken back'));
      }
    }
    const added = describeEvents(events, nameOf).map((line) => this.addLine(line));
    if (events.some((e) => !ROOM_EVENTS.has(e.type))) {
      this.moves.push(added);
      if (this.moves.length > 8) this.moves.shift();
    }
  }

  addLine({ text, kind = 'event', tile, at }) {
    const li = el('li', { class: kind, dataset: at ? { x: at.x, y: at.y } : {} },
      tile ? tilePicture(tile.id, tile.rotation ?? 0, 22) : null, el('span', {}, text));
    if (at) li.addEventListener('click', () => this.dispatchEvent(new CustomEvent('locate', { detail: at })));
    this.node.append(li);
    while (this.node.children.length > MAX_LOG) this.node.firstChild.remove();
    this.node.scrollTop = this.node.scrollHeight;
    return li;
  }

  // Asks the server for the game's events so far and rebuilds the log and the breakdown.
  async reload(room, nameOf) {
    if (this.loading) return this.loading;
    this.live = [];
    this.loading = (async () => {
      const entries = [];
      let from = 0, seq = null;
      for (let page = 0; page < 100; page++) {
        const a = await this.conn.request({ type: 'history', from }).catch(() => null);
        if (!a || a.type !== 'history') return false;
        if (seq !== null && a.seq !== seq) { entries.length = 0; from = 0; seq = null; continue; }  // moved on meanwhile
        seq = a.seq;
        entries.push(...a.entries);
        if (a.to >= a.moves + 1) break;
        from = a.to;
      }
      clear(this.node);
      this.moves = [];
      this.breakdown.reset();
      for (const entry of entries) { this.breakdown.add(entry.events); this.lines(entry.events, nameOf); }
      for (const p of this.live) if (p.seq > seq) { this.breakdown.add(p.events); this.lines(p.events, nameOf); }
      this.complete = true;
      return true;
    })();
    const ok = await this.loading;
    this.loading = null;
    if (!ok) {  // refused (a delayed spectator): what was heard meanwhile is still told
      for (const p of this.live) { this.breakdown.add(p.events); this.lines(p.events, nameOf); }
    }
    this.live = [];
    this.dispatchEvent(new CustomEvent('loaded', { detail: { ok } }));
    return ok;
  }
}
