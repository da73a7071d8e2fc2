// @ts-check
// One connection to `carcassonne serve` (docs/protocol.md §1-§2, §15, §22, §23): requests
// answered by id, paced to the rate the server announced, and reconnection with backoff: after
// a drop the socket comes back by itself (Client, client.js, then takes its room again). A
// `moved` answer (§22) is followed once: to the instance it names, where the request is asked
// again. A player signed in by cookie authenticates each new socket first (§23). Timers and
// time come from `options.clock`, so that tests run on a fake clock.

import { Backoff } from './backoff.js';
import { Pacer } from './pacer.js';

/** @typedef {import('./wire').ClientMessage} ClientMessage */
/** @typedef {import('./wire').ServerMessage} ServerMessage */
/** @typedef {import('./wire').ServerWelcome} ServerWelcome */
/** @typedef {import('./wire').ServerAuthenticated} ServerAuthenticated */
/** @typedef {import('./types').SocketLike} SocketLike */
/** @typedef {import('./types').SocketConstructor} SocketConstructor */
/** @typedef {import('./types').Clock} Clock */
/** @typedef {import('./types').ClientOptions} ClientOptions */
/** @typedef {import('./types').ClientEvents} ClientEvents */

const OPEN = 1; // WebSocket.OPEN, the same in browsers and in `ws`

// Requests that need the socket signed in first (a resume without a token names no seat else).
const SIGNED_IN = new Set(['join', 'create_room', 'resume', 'seek', 'cancel_seek', 'create_tournament', 'tournament']);

/** The error a request rejects with when its connection dropped before the answer. */
export class ConnectionLost extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ConnectionLost';
  }
}

/** @type {Clock} */
const systemClock = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(/** @type {number} */ (handle)),
  now: () => performance.now(),
};

export class Connection extends EventTarget {
  /** @param {string} url  ws(s)://HOST/ws @param {ClientOptions} [options] */
  constructor(url, options = {}) {
    super();
    const Socket = options.WebSocket ?? /** @type {SocketConstructor | undefined} */ (/** @type {any} */ (globalThis).WebSocket);
    if (!Socket) throw new Error('no WebSocket here: pass options.WebSocket (the `ws` package under Node)');
    this.Socket = Socket;
    this.clock = options.clock ?? systemClock;
    this.clientName = options.clientName ?? 'carcassonne-client/1';
    this.backoff = new Backoff(options.backoffInitialMs ?? 500, options.backoffMaxMs ?? 8000);
    this.pacer = new Pacer(); // to the welcome's message rate
    this.url = url;
    this.home = url; // where a dropped connection comes back (it is moved on from there)
    /** @type {SocketLike | null} */
    this.ws = null;
    /** @type {'connecting' | 'open' | 'closed'} */
    this.state = 'closed';
    /** @type {Map<string | number, { resolve: (m: ServerMessage) => void, reject: (e: Error) => void }>} */
    this.pending = new Map();
    this.counter = 0;
    /** @type {ServerWelcome['limits'] | null} */
    this.limits = null;
    /** @type {{ resolve: () => void, reject: (e: Error) => void } | null} */
    this.moving = null; // while moving to another instance
    /** @type {unknown} */
    this.retryTimer = null;
    this.closed = false; // close() was called: no reconnection
    this.welcomed = false; // hello answered on the current socket
    /** @type {string | null} */
    this.session = options.session ?? null; // a player's session (§23), else the upgrade's cookie
    this.wantsAuth = this.session !== null; // authenticate each socket first (§23)
    /** @type {ServerAuthenticated['player'] | null} */
    this.player = null;
    /** @type {Promise<unknown> | null} */
    this.authPending = null;
    /** @type {(() => void) | null} */
    this.reopened = null; // resolves reopen() once the new socket is ready
  }

  /**
   * Calls `listener` with the detail of each `type` event; returns what removes it.
   * @template {keyof ClientEvents} K
   * @param {K} type
   * @param {(detail: ClientEvents[K]) => void} listener
   * @returns {() => void}
   */
  on(type, listener) {
    /** @param {Event} e */
    const f = (e) => listener(/** @type {CustomEvent<ClientEvents[K]>} */ (e).detail);
    this.addEventListener(type, f);
    return () => this.removeEventListener(type, f);
  }

  /**
   * @template {keyof ClientEvents} K
   * @param {K} type
   * @param {ClientEvents[K]} detail
   */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  connect() {
    if (this.ws || this.closed) return;
    this.setState('connecting');
    const ws = new this.Socket(this.url);
    this.ws = ws;
    ws.onopen = () => void this.opened();
    ws.onmessage = (e) => this.receive(String(e.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.dropped('connection lost');
      if (this.moving) {
        this.moving.reject(new ConnectionLost("cannot reach the room's server"));
        this.moving = null;
      }
      // Back through the usual door: it moves us on to wherever our room is by then.
      this.url = this.home;
      this.setState('closed');
      if (!this.closed) this.retryTimer = this.clock.setTimeout(() => { this.retryTimer = null; this.connect(); }, this.backoff.next());
    };
  }

  /** Closes the connection for good (no reconnection); pending requests reject. */
  close() {
    this.closed = true;
    if (this.retryTimer !== null) this.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const old = this.ws;
    this.dropped('connection closed');
    if (old) { old.onclose = null; old.close(); }
    this.setState('closed');
  }

  /** @param {string} why */
  dropped(why) {
    this.ws = null;
    this.welcomed = false;
    this.pacer.reset();
    this.lost();
    for (const { reject } of this.pending.values()) reject(new ConnectionLost(why));
    this.pending.clear();
  }

  /** @param {'connecting' | 'open' | 'closed'} state */
  setState(state) {
    this.state = state;
    this.emit('status', { state });
  }

  async opened() {
    this.setState('open');
    try {
      const welcome = await this.request({ type: 'hello', protocol: 1, client: this.clientName });
      if (welcome.type !== 'welcome') return;
      this.backoff.reset();
      this.limits = welcome.limits;
      this.pacer.configure(welcome.limits.message_rate, welcome.limits.message_burst);
      this.welcomed = true;
      this.player = null;
      this.emit('welcome', welcome);
      if (this.wantsAuth) await this.authenticate();
      if (this.moving) { this.moving.resolve(); this.moving = null; return; } // the mover asks
      await this.ready();
      if (this.reopened) { this.reopened(); this.reopened = null; }
    } catch { /* the connection dropped again: onclose retries */ }
  }

  /**
   * Signs this socket in as the player of `session`, else of the session cookie its upgrade
   * request carried (§23).
   * @returns {Promise<ServerMessage>} `authenticated` or an error
   */
  authenticate() {
    const asked = this.request({ type: 'authenticate', ...(this.session ? { session: this.session } : {}) }).then((answer) => {
      this.player = answer.type === 'authenticated' ? answer.player : null;
      this.emit('authenticated', { player: this.player, error: answer.type === 'error' ? answer : null });
      return answer;
    });
    const pending = asked.catch(() => null).finally(() => { if (this.authPending === pending) this.authPending = null; });
    this.authPending = pending;
    return asked;
  }

  /**
   * Signs in with `session` (from the HTTP routes of §23): this socket now, each new one first.
   * @param {string} session @returns {Promise<ServerMessage | null>} the answer, null when not connected
   */
  signIn(session) {
    this.session = session;
    this.wantsAuth = true;
    return this.welcomed ? this.authenticate() : Promise.resolve(null);
  }

  /** The player this socket is signed in as, once any authenticate under way is answered. */
  async signedIn() {
    if (this.authPending) await this.authPending;
    if (this.wantsAuth && this.welcomed && !this.player) await this.authenticate().catch(() => null);
    return this.player;
  }

  /** A new socket at once (a new session cookie); resolves once it is back in its room. */
  reopen() {
    const old = this.ws;
    this.dropped('connection reopened');
    if (old) { old.onclose = null; old.close(); }
    this.player = null;
    this.url = this.home;
    return new Promise((resolve) => { this.reopened = () => resolve(undefined); this.connect(); });
  }

  /** @param {object} message */
  send(message) {
    if (this.ws && this.ws.readyState === OPEN) this.ws.send(JSON.stringify(message));
  }

  /**
   * Sends `message` and resolves with the server's direct answer (which may be an `error`
   * frame); rejects with ConnectionLost when the connection drops first. A `moved` answer is
   * followed once: the same request is asked at the instance it names, with `moved: true`.
   * @param {ClientMessage} message
   * @returns {Promise<ServerMessage>}
   */
  async request(message) {
    if (SIGNED_IN.has(message.type) && this.authPending) await this.authPending;
    const answer = await this.ask(message);
    if (answer.type !== 'moved' || message.moved) return answer;
    await this.moveTo(answer.url);
    return this.ask({ ...message, moved: true });
  }

  /** This connection, closed, opens again at `url`; resolves once that instance said welcome. @param {string} url */
  moveTo(url) {
    const old = this.ws;
    this.dropped('connection moved');
    if (old) { old.onclose = null; old.close(); }
    this.url = url;
    return new Promise((resolve, reject) => {
      this.moving = { resolve: () => resolve(undefined), reject };
      this.connect();
    });
  }

  /** @param {ClientMessage} message @returns {Promise<ServerMessage>} */
  ask(message) {
    const id = message.id ?? `w${++this.counter}`;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== OPEN) return reject(new ConnectionLost('not connected'));
      this.pending.set(id, { resolve, reject });
      const ws = this.ws;
      const wait = this.pacer.delay(this.clock.now());
      if (wait <= 0) this.send({ ...message, id });
      else this.clock.setTimeout(() => { if (this.ws === ws) this.send({ ...message, id }); }, wait);
    });
  }

  /** @param {string} text */
  receive(text) {
    /** @type {ServerMessage} */
    let m;
    try { m = JSON.parse(text); } catch { return; }
    this.emit('message', m);
    const waiting = 'id' in m && m.id !== undefined ? this.pending.get(m.id) : undefined;
    if (waiting && 'id' in m && m.id !== undefined) {
      this.pending.delete(m.id);
      this.answered(m);
      waiting.resolve(m);
    } else this.unasked(m);
  }

  // What a Client adds (client.js): ---------------------------------------------------------

  /** The socket dropped or was replaced: the server no longer has this connection anywhere. */
  lost() {}

  /** A new socket was welcomed (and authenticated): take up where it was. */
  async ready() {}

  /** An answer to a request, before the request resolves with it. @param {ServerMessage} m */
  answered(m) { void m; }

  /** A frame that answers no request. @param {ServerMessage} m */
  unasked(m) { void m; }
}
