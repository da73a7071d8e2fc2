// @ts-check
// A Client is a Connection (connection.js) in a room (docs/protocol.md §4-§7, §11-§13): the
// room's view kept from a snapshot and the patches after it (numbered by seq; a gap or a patch
// that does not apply asks for a snapshot), seats taken with `join` and taken again after each
// reconnection with `resume` and the seat token (or watched again with `spectate`), and moves
// sent with ids, sent again with the same id after a drop (applied at most once, §11).

import { applyPatch } from './patch.js';
import { Connection, ConnectionLost } from './connection.js';

/** @typedef {import('./wire').ClientMessage} ClientMessage */
/** @typedef {import('./wire').ServerMessage} ServerMessage */
/** @typedef {import('./wire').View} View */
/** @typedef {import('./wire').Move} Move */
/** @typedef {import('./wire').ServerSnapshot} ServerSnapshot */
/** @typedef {import('./wire').ServerPatch} ServerPatch */
/** @typedef {import('./types').ClientOptions} ClientOptions */
/** @typedef {import('./types').Membership} Membership */

export class Client extends Connection {
  /** @param {string} url  ws(s)://HOST/ws @param {ClientOptions} [options] */
  constructor(url, options = {}) {
    super(url, options);
    this.moveRetries = options.moveRetries ?? 3;
    this.moveRetryWaitMs = options.moveRetryWaitMs ?? 30000;
    this.resumeMissed = options.resumeMissed ?? true;
    this.idPrefix = Math.random().toString(36).slice(2, 8); // move ids unique across connections
    // Membership: what to come back to after a reconnection.
    /** @type {string | null} */
    this.room = null;
    /** @type {'seat' | 'spectator' | null} */
    this.mode = null;
    /** @type {string | null} */
    this.token = null; // seat token while seated (null: a seat resumed signed in)
    /** @type {number | null} */
    this.seat = null;
    /** @type {View | null} */
    this.view = null;
    /** @type {number | null} */
    this.seq = null;
    /** @type {number | null} */
    this.clockAt = null; // clock.now() when the view's clocks were as they read
    this.awaitingSnapshot = false;
    this.stopped = false; // after `replaced`: do not take the seat back by ourselves
    this.inRoom = false; // the server has us in `room` (answered join/spectate/resume)
    /** @type {{ key: string, ws: unknown, promise: Promise<ServerMessage | null> } | null} */
    this.rejoining = null;
  }

  lost() {
    this.inRoom = false;
  }

  async ready() {
    await this.rejoin();
  }

  /** @param {ServerMessage} m */
  answered(m) {
    if (m.type === 'snapshot') this.takeSnapshot(m); // a snapshot answering a request is also the new view
  }

  /** @param {ServerMessage} m */
  unasked(m) {
    switch (m.type) {
      case 'snapshot': this.takeSnapshot(m); break;
      case 'patch': this.takePatch(m); break;
      case 'chat': this.emit('chat', m); break;
      case 'replaced':
        // Another tab or device took this seat with the same token: leave it to them.
        this.stopped = true;
        this.inRoom = false;
        this.emit('replaced', m);
        this.membership('replaced', { room: m.room });
        break;
      case 'rematch_ready': this.emit('rematch', m); break;
      case 'match_found': this.emit('match', m); break;
      case 'goodbye': this.emit('goodbye', m); break;
      case 'error':
        if (m.code === 'room_moved') {
          // Another instance serves the room now: come back through our own address, which
          // moves us on to it, and take the seat again there.
          this.inRoom = false;
          this.emit('room_moved', { room: this.room });
          this.ws?.close();
          break;
        }
        this.emit('error', m);
        break;
      default: break;
    }
  }

  /** @param {ServerSnapshot} m */
  takeSnapshot(m) {
    if (m.room !== this.room) return;
    this.view = m.view;
    this.seq = m.seq;
    // The view's clock is as of its seq: the running seat's clock has run since (§6 `clock`).
    this.clockAt = this.clock.now() - (m.clock_elapsed_ms ?? 0);
    this.awaitingSnapshot = false;
    this.emit('view', { events: [], snapshot: true });
  }

  /** @param {ServerPatch} m */
  takePatch(m) {
    if (m.room !== this.room || this.view === null || this.seq === null || this.awaitingSnapshot) return;
    if (m.seq <= this.seq) return; // already applied (a resume's patches overlapping a snapshot)
    if (m.seq !== this.seq + 1) return this.askSnapshot(); // a gap: the whole view again
    try {
      this.view = applyPatch(this.view, m.patch);
    } catch {
      return this.askSnapshot();
    }
    this.seq = m.seq;
    if (m.patch.some((op) => op.path === '/room' || op.path.startsWith('/room/clock'))) this.clockAt = this.clock.now();
    this.emit('view', { events: m.events, snapshot: false });
  }

  askSnapshot() {
    this.awaitingSnapshot = true;
    this.request({ type: 'snapshot' }).catch(() => {});
  }

  /** @param {Membership['type']} type @param {Omit<Membership, 'type'>} [detail] */
  membership(type, detail = {}) {
    this.emit('membership', { type, ...detail });
  }

  /**
   * Where this connection should be: in `room`, on the seat of `token` (or, `seated` without a
   * token, on the signed-in player's seat), or watching. Kept across reconnections.
   * @param {string} room @param {string | null} [token] @param {boolean} [seated]
   */
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

  /** Watches `room`. @param {string} room */
  spectate(room) { return this.enterRoom(room, null, false); }

  /** Takes the seat of `token` in `room` (null: the signed-in player's). @param {string} room @param {string | null} token */
  resume(room, token) { return this.enterRoom(room, token, true); }

  /** @param {number} ms */
  sleep(ms) { return new Promise((resolve) => { this.clock.setTimeout(() => resolve(undefined), ms); }); }

  /**
   * A request that enters `room`. A room whose instance died answers `room_unavailable` until
   * another one adopted it (docs/scaling.md "Failover"): ask again, a little later each time
   * (about 16 s in all). Resolves with null when the connection left `room` or dropped meanwhile.
   * @param {string} room @param {ClientMessage} message
   */
  async enter(room, message) {
    let answer = await this.request(message);
    for (let wait = 250; answer.type === 'error' && answer.code === 'room_unavailable' && wait <= 8000; wait *= 2) {
      this.emit('waiting', { room, waitMs: wait });
      await this.sleep(wait);
      if (this.room !== room || !this.welcomed) return null;
      answer = await this.request(message);
    }
    return answer;
  }

  /**
   * Takes the room again (after a welcome, or enterRoom()). One at a time: asked again for the
   * same place while one is under way on this socket (a room entered while the socket was still
   * signing in), it is the same request.
   * @returns {Promise<ServerMessage | null>}
   */
  rejoin() {
    const key = `${this.room}|${this.mode}|${this.token}`;
    if (this.rejoining && this.rejoining.key === key && this.rejoining.ws === this.ws) return this.rejoining.promise;
    const promise = this.rejoinNow().finally(() => { if (this.rejoining?.promise === promise) this.rejoining = null; });
    this.rejoining = { key, ws: this.ws, promise };
    return promise;
  }

  /** @returns {Promise<ServerMessage | null>} */
  async rejoinNow() {
    if (!this.room || this.stopped) return null;
    const room = this.room;
    this.inRoom = false;
    const lastSeq = this.resumeMissed && this.view !== null && this.seq !== null ? { last_seq: this.seq } : {};
    let answer = await this.enter(room, this.mode === 'seat'
      ? { type: 'resume', room, ...(this.token ? { token: this.token } : {}), ...lastSeq }
      : { type: 'spectate', room });
    if (!answer) return null; // moved on, or dropped: opened() retries
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
    this.seat = 'seat' in answer && typeof answer.seat === 'number' ? answer.seat : null;
    this.membership(this.mode ?? 'spectator', { room });
    return answer;
  }

  /**
   * Creates a room (§4 `create_room`), following `moved` to the instance that should hold it.
   * @param {Omit<import('./wire').ClientCreateRoom, 'type'>} [options]
   */
  createRoom(options = {}) {
    return this.request({ ...options, type: 'create_room' });
  }

  /** @returns {Promise<ServerMessage>} */
  listRooms() {
    return this.request({ type: 'list_rooms' });
  }

  /**
   * Takes a seat of `room` (a spectator of it leaves first, as the protocol requires). Resolves
   * with `joined` (its seat token is kept for resuming) or an error.
   * @param {string} room @param {{ name?: string, seat?: number, nonce?: string }} [options]
   * @returns {Promise<ServerMessage>}
   */
  async join(room, options = {}) {
    if (this.inRoom && this.room === room && this.mode === 'spectator') await this.request({ type: 'leave' });
    this.inRoom = false;
    this.room = room;
    this.view = null;
    this.seq = null;
    const { name, seat, nonce } = options;
    // room_unavailable means no room saw the join, so asking again takes one seat at most.
    const answer = await this.enter(room, {
      type: 'join', room, ...(name !== undefined ? { name } : {}), ...(nonce !== undefined ? { nonce } : {}),
      ...(seat !== undefined ? { seat } : {}),
    }) ?? { type: 'error', code: 'connection_lost', message: 'The connection dropped: try again.' };
    if (answer.type === 'joined') {
      this.mode = 'seat';
      this.token = answer.token ?? null;
      this.seat = answer.seat;
      this.stopped = false;
      this.inRoom = true;
      this.membership('seat', { room, ...(answer.token ? { token: answer.token } : {}) });
    } else if (this.mode === 'spectator') {
      await this.rejoin(); // back to watching
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

  /**
   * Sends a move copied from `view.game.legal_moves`, with an id and the seq of the view it was
   * decided on (a stale view is refused rather than applied, §11). When the connection drops
   * before the answer, the same message (same id: applied at most once) is sent again once the
   * seat is back, up to `moveRetries` times. Resolves with `move_accepted` or an error.
   * @param {Move} move @param {{ id?: string, seq?: number }} [options]
   * @returns {Promise<ServerMessage>}
   */
  async move(move, options = {}) {
    const seq = options.seq ?? this.seq;
    /** @type {ClientMessage} */
    const message = { type: 'move', id: options.id ?? `m${this.idPrefix}${++this.counter}`, ...(seq !== null ? { seq } : {}), move };
    for (let attempt = 0; ; ++attempt) {
      try {
        return await this.request(message);
      } catch (e) {
        if (!(e instanceof ConnectionLost) || attempt >= this.moveRetries || this.mode !== 'seat') throw e;
        if (!(await this.backInRoom(this.moveRetryWaitMs))) throw e;
      }
    }
  }

  /**
   * Resolves true once the seat is taken again after a drop, false after `ms` or when it is
   * lost instead (left, replaced, refused).
   * @param {number} ms @returns {Promise<boolean>}
   */
  backInRoom(ms) {
    if (this.inRoom && this.mode === 'seat') return Promise.resolve(true);
    return new Promise((resolve) => {
      /** @param {boolean} ok */
      const done = (ok) => { off(); this.clock.clearTimeout(timer); resolve(ok); };
      const off = this.on('membership', (m) => done(m.type === 'seat'));
      const timer = this.clock.setTimeout(() => done(false), ms);
    });
  }
}
