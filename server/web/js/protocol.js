// The client side of docs/protocol.md: one WebSocket to ws(s)://<this host>/ws, requests
// answered by id, the room's view kept from a snapshot and the patches after it (JSON Patch,
// numbered by seq), and reconnection: after a drop the connection comes back by itself and
// takes its seat again with `resume` (or watches again with `spectate`). In a cluster, an
// answer `moved` (docs/protocol.md §22) moves the connection to the instance it names, where the
// request is asked again, once. A page signed in as a player (account.js) authenticates each
// new socket with its cookie before anything else (docs/protocol.md §23); join, create_room,
// resume and the competition messages (§24) wait for that. A seat the server arranged (quick
// play, a series, a tournament: `match_found`) has no token: it is resumed signed in.

import { nonceFor } from './fairness.js';

// Requests that need the socket signed in first (a resume without a token names no seat else).
const SIGNED_IN = new Set(['join', 'create_room', 'resume', 'seek', 'cancel_seek', 'create_tournament', 'tournament']);

export function applyPatch(doc, ops) {
  const root = { '': structuredClone(doc) };
  for (const op of ops) {
    const tokens = op.path === '' ? [] : op.path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let parent = root, key = '';
    for (const t of tokens) { parent = parent[key]; key = t; }
    if (parent === null || typeof parent !== 'object') throw new Error(`patch path ${op.path} goes through a non-container`);
    if (Array.isArray(parent)) {
      const i = key === '-' ? parent.length : Number(key);
      if (op.op === 'add') parent.splice(i, 0, op.value);
      else if (op.op === 'remove') parent.splice(i, 1);
      else parent[i] = op.value;  // replace
    } else if (op.op === 'remove') delete parent[key];
    else parent[key] = op.value;  // add, replace
  }
  return root[''];
}

// Events: 'status' {state: connecting|open|closed}, 'view' {events, snapshot}, 'chat' {frame},
// 'notice' {text, kind} (server messages worth showing), 'membership' {type: seat | spectator |
// left | replaced | lost_seat | refused, room, ...}, 'match' {frame} (`match_found`, §24).
export class Connection extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.home = url;           // where a dropped connection comes back (it is moved on from there)
    this.moving = null;        // {resolve, reject} while moving to another instance
    this.ws = null;
    this.state = 'closed';
    this.pending = new Map();  // id -> {resolve, reject}
    this.counter = 0;
    this.backoff = 500;
    this.limits = null;
    // Membership: what to come back to after a reconnection.
    this.room = null;          // room id
    this.mode = null;          // 'seat' | 'spectator' | null
    this.token = null;         // seat token while seated (null: a seat resumed signed in)
    this.view = null;
    this.seq = null;
    this.awaitingSnapshot = false;
    this.stopped = false;      // after `replaced`: do not take the seat back by ourselves
    this.inRoom = false;       // the server has us in `room` (answered join/spectate/resume)
    this.welcomed = false;     // hello answered on the current socket
    this.wantsAuth = false;    // a player is signed in on the page: authenticate each socket
    this.player = null;        // the player this socket is authenticated as
    this.authPending = null;   // the authenticate under way, if any
    this.reopened = null;      // resolves reopen() once the new socket is ready
  }

  connect() {
    if (this.ws) return;
    this.setState('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.opened();
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      this.inRoom = false;
      for (const { reject } of this.pending.values()) reject(new Error('connection lost'));
      this.pending.clear();
      if (this.moving) { this.moving.reject(new Error('cannot reach the room\'s server')); this.moving = null; }
      // Back through the usual door: it moves us on to wherever our room is by then.
      this.url = this.home;
      this.setState('closed');
      // Try again, a little later each time (0.5 s up to 8 s).
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  setState(state) {
    this.state = state;
    this.dispatchEvent(new CustomEvent('status', { detail: { state } }));
  }

  async opened() {
    this.backoff = 500;
    this.setState('open');
    try {
      const welcome = await this.request({ type: 'hello', protocol: 1, client: 'carcassonne-web/1' });
      if (welcome.type === 'welcome') this.limits = welcome.limits;
      this.welcomed = true;
      this.player = null;
      if (this.wantsAuth) await this.authenticate();
      if (this.moving) { this.moving.resolve(); this.moving = null; return; }  // the mover asks
      await this.rejoin();
      if (this.reopened) { this.reopened(); this.reopened = null; }
    } catch { /* the connection dropped again: onclose retries */ }
  }

  // Signs this socket in as the page's player, by the cookie its upgrade request carried.
  // Resolves with the answer (`authenticated` or an error, told as a notice).
  authenticate() {
    const asked = this.request({ type: 'authenticate' }).then((answer) => {
      this.player = answer.type === 'authenticated' ? answer.player : null;
      if (answer.type === 'error') this.notice(`Not signed in on the connection: ${answer.message}`, 'error');
      return answer;
    });
    const pending = asked.catch(() => null).finally(() => { if (this.authPending === pending) this.authPending = null; });
    this.authPending = pending;
    return asked;
  }

  // The player this socket is signed in as, once any authenticate under way is answered (and
  // asked again if the page has a player but the socket none); null when not signed in.
  async signedIn() {
    if (this.authPending) await this.authPending;
    if (this.wantsAuth && this.welcomed && !this.player) await this.authenticate().catch(() => null);
    return this.player;
  }

  // A new socket at once (its upgrade carries the new session cookie after a sign-in or a
  // sign-out); resolves once it is welcomed, authenticated and back in its room.
  reopen() {
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; old.close(); }
    for (const { reject } of this.pending.values()) reject(new Error('connection reopened'));
    this.pending.clear();
    this.welcomed = false;
    this.inRoom = false;
    this.player = null;
    this.url = this.home;
    return new Promise((resolve) => { this.reopened = resolve; this.connect(); });
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  // Resolves with the server's direct answer (which may be an `error` frame). A `moved` answer
  // is followed once: to the instance it names, where the same request is asked with `moved`.
  async request(message) {
    if (SIGNED_IN.has(message.type) && this.authPending) await this.authPending;
    const answer = await this.ask(message);
    if (answer.type !== 'moved' || message.moved || typeof answer.url !== 'string') return answer;
    await this.moveTo(answer.url);
    return this.ask({ ...message, moved: true });
  }

  // This connection, closed, opens again at `url`; resolves once that instance said welcome.
  moveTo(url) {
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; old.close(); }
    for (const { reject } of this.pending.values()) reject(new Error('connection moved'));
    this.pending.clear();
    this.welcomed = false;
    this.inRoom = false;
    this.url = url;
    return new Promise((resolve, reject) => {
      this.moving = { resolve, reject };
      this.connect();
    });
  }

  ask(message) {
    const id = `w${++this.counter}`;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return reject(new Error('not connected'));
      this.pending.set(id, { resolve, reject });
      this.send({ ...message, id });
    });
  }

  receive(text) {
    let m;
    try { m = JSON.parse(text); } catch { return; }
    if (m.id !== undefined && this.pending.has(m.id)) {
      const { resolve } = this.pending.get(m.id);
      this.pending.delete(m.id);
      // A snapshot answering a request is also the new view.
      if (m.type === 'snapshot') this.takeSnapshot(m);
      resolve(m);
      return;
    }
    switch (m.type) {
      case 'snapshot': this.takeSnapshot(m); break;
      case 'patch': this.takePatch(m); break;
      case 'chat': this.dispatchEvent(new CustomEvent('chat', { detail: m })); break;
      case 'replaced':
        // Another tab or device took this seat with the same token: leave it to them.
        this.stopped = true;
        this.inRoom = false;
        this.notice('This seat was taken over by another window. Reload to take it back.', 'error');
        this.membership('replaced', { room: m.room });
        break;
      case 'rematch_ready': this.dispatchEvent(new CustomEvent('rematch', { detail: m })); break;
      case 'match_found': this.dispatchEvent(new CustomEvent('match', { detail: m })); break;
      case 'goodbye': this.notice(`The server says goodbye: ${m.reason}. Reconnecting…`, 'error'); break;
      case 'error':
        if (m.code === 'room_moved') {
          // Another instance serves the room now: come back through our own address, which
          // moves us on to it, and take the seat again there.
          this.notice('The game moved to another server: reconnecting…', 'info');
          this.inRoom = false;
          this.ws?.close();
          break;
        }
        this.notice(m.message, 'error');
        break;
      default: break;
    }
  }

  notice(text, kind = 'info') {
    this.dispatchEvent(new CustomEvent('notice', { detail: { text, kind } }));
  }

  takeSnapshot(m) {
    if (m.room !== this.room) return;
    this.view = m.view;
    this.seq = m.seq;
    // The view's clock is as of its seq: the running seat's clock has run since (§6 `clock`).
    this.clockAt = performance.now() - (m.clock_elapsed_ms ?? 0);
    this.awaitingSnapshot = false;
    this.dispatchEvent(new CustomEvent('view', { detail: { events: [], snapshot: true } }));
  }

  takePatch(m) {
    if (m.room !== this.room || this.view === null) return;
    if (this.awaitingSnapshot) return;
    if (m.seq !== this.seq + 1) {
      // A gap (a frame lost in a reconnection race): ask for the whole view again.
      this.awaitingSnapshot = true;
      this.request({ type: 'snapshot' }).catch(() => {});
      return;
    }
    try {
      this.view = applyPatch(this.view, m.patch);
      this.seq = m.seq;
      if (m.patch.some((op) => op.path === '/room' || op.path.startsWith('/room/clock'))) this.clockAt = performance.now();
    } catch {
      this.awaitingSnapshot = true;
      this.request({ type: 'snapshot' }).catch(() => {});
      return;
    }
    this.dispatchEvent(new CustomEvent('view', { detail: { events: m.events, snapshot: false } }));
  }

  membership(type, detail = {}) {
    this.dispatchEvent(new CustomEvent('membership', { detail: { type, ...detail } }));
  }

  // Where this connection should be: in `room`, on the seat of `token` (or, `seated` without a
  // token, on the signed-in player's seat), or watching. Kept across reconnections (opened()
  // comes back here).
  async enterRoom(room, token = null, seated = token !== null) {
    this.room = room;
    this.mode = seated ? 'seat' : 'spectator';
    this.token = token;
    this.view = null;
    this.seq = null;
    this.inRoom = false;
    this.stopped = false;
    if (this.welcomed) return this.rejoin();
    return null;
  }

  // A request that enters `room` (join, resume, spectate). In a cluster, a room whose instance
  // died answers `room_unavailable` until another instance has adopted it (docs/scaling.md
  // "Failover"): ask again, a little later each time (about 16 s in all). Resolves with null
  // when the page moved on to another room or the connection dropped meanwhile.
  async enter(room, message) {
    let answer = await this.request(message);
    for (let wait = 250; answer.type === 'error' && answer.code === 'room_unavailable' && wait <= 8000; wait *= 2) {
      this.notice('The game\'s server is being replaced: waiting…', 'info');
      await new Promise((r) => setTimeout(r, wait));
      if (this.room !== room || !this.welcomed) return null;
      answer = await this.request(message);
    }
    return answer;
  }

  async rejoin() {
    if (!this.room || this.stopped) return null;
    const room = this.room;
    this.inRoom = false;
    let answer = await this.enter(room, this.mode === 'seat'
      ? { type: 'resume', room, ...(this.token ? { token: this.token } : {}) }
      : { type: 'spectate', room });
    if (!answer) return null;  // moved on, or dropped: opened() retries
    if (answer.type === 'error' && answer.code === 'bad_token') {
      // The seat is gone (left before the start): watch instead.
      this.membership('lost_seat', { room });
      this.mode = 'spectator';
      this.token = null;
      answer = await this.request({ type: 'spectate', room });
    }
    if (answer.type === 'error') {
      this.membership('refused', { room, code: answer.code, message: answer.message });
      return answer;
    }
    this.inRoom = true;
    this.seat = answer.seat ?? null;
    this.membership(this.mode, { room });
    return answer;
  }

  // Takes a seat of the room this connection is in or is about to enter (a spectator leaves
  // first, as the protocol requires). Resolves with `joined` or an error.
  async join(room, name, seat) {
    if (this.inRoom && this.room === room && this.mode === 'spectator') await this.request({ type: 'leave' });
    this.inRoom = false;
    this.room = room;
    this.view = null;
    this.seq = null;
    // room_unavailable means no room saw the join, so asking again takes one seat at most.
    const answer = await this.enter(room, { type: 'join', room, name, nonce: nonceFor(room), ...(seat !== undefined ? { seat } : {}) })
      ?? { type: 'error', code: 'connection_lost', message: 'The connection dropped: try again.' };
    if (answer.type === 'joined') {
      this.mode = 'seat';
      this.token = answer.token;
      this.seat = answer.seat;
      this.inRoom = true;
      this.membership('seat', { room, token: answer.token });
    } else if (this.mode === 'spectator') {
      await this.rejoin();  // back to watching
    } else {
      this.room = null;
    }
    return answer;
  }

  async leave() {
    const answer = this.inRoom ? await this.request({ type: 'leave' }).catch(() => null) : null;
    this.room = null;
    this.mode = null;
    this.token = null;
    this.view = null;
    this.seq = null;
    this.inRoom = false;
    this.membership('left');
    return answer;
  }

  // A move copied from legal_moves; `seq` says which view it was decided on (stale views are
  // refused by the server rather than applied).
  move(move) {
    return this.request({ type: 'move', seq: this.seq, move });
  }
}
