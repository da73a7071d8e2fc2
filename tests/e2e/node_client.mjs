#!/usr/bin/env node
// End-to-end test with a client nobody on this project wrote: Node's `ws` package.
//
//   node tests/e2e/node_client.mjs ws://127.0.0.1:PORT/ws [SEED]
//
// Two seated clients play a whole 2-player base game of random legal moves against the server,
// a third connection watches as a spectator. Every client keeps its view by applying the
// server's JSON Patches (RFC 6902) and checks that sequence numbers are contiguous. On the way it
// checks the documented behaviour of docs/protocol.md: welcome, ping, list_rooms, chat, refused
// moves (not_your_turn, stale_sequence, malformed_move, square_not_open), a duplicate move id
// answered again and not applied twice, resume with the seat token (the old connection is told
// "replaced"), snapshots equal to the patched views, /api/rooms and /metrics. At the end the
// scores must be the same in all three views. Requests are paced to the rate announced in
// `welcome`, as a well-behaved client must.
//
// SEED (optional) fixes the game (setup.seed; the server must run with --allow-scripted true)
// and the choice of moves, so that a failure can be replayed. Exit 0 on success, 1 with a
// message on any failure, including the overall timeout (E2E_TIMEOUT_MS, default 120000).
// With E2E_TRAFFIC=FILE every frame sent and received is appended to FILE as JSON lines.
// Every frame sent and received is validated against the wire schema (docs/schema/, Ajv from
// tests/web/node_modules): a server frame that does not match fails the test, and a client frame
// the schema rejects must be the one the server answers with a shape error (SHAPE_ERRORS), and
// the other way round.
import { createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
function loadWs() {
  // A node_modules folder or NODE_PATH (run_node_client.sh sets it), then Debian's node-ws.
  for (const name of ['ws', '/usr/share/nodejs/ws']) {
    try { return require(name); } catch { /* next */ }
  }
  fatal('cannot load the "ws" package: apt-get install node-ws (scripts/install-deps.sh test)');
}

const { loadWireSchema, SHAPE_ERRORS } = await import('../schema/wire_schema.mjs').catch((e) => {
  console.error(`node_client: FAIL: cannot load the wire schema's validator (tests/schema/ensure_ajv.sh): ${e.message}`);
  process.exit(1);
});
const wire = loadWireSchema();

const started = Date.now();
const url = process.argv[2];
const seed = process.argv[3] ?? `${Date.now() % 1000000}`;
const timeoutMs = Number(process.env.E2E_TIMEOUT_MS ?? 120000);
const trafficFile = process.env.E2E_TRAFFIC;

function fatal(message) {
  console.error(`node_client: FAIL (seed ${seed}): ${message}`);
  process.exit(1);
}
function check(condition, message) {
  if (!condition) fatal(message);
}
if (!url) fatal('usage: node_client.mjs ws://HOST:PORT/ws [SEED]');
const WebSocket = loadWs();
setTimeout(() => fatal(`timed out after ${timeoutMs} ms`), timeoutMs).unref();
process.on('unhandledRejection', (e) => fatal(e?.stack ?? String(e)));

// A small deterministic generator (mulberry32) for the choice of moves.
let rngState = [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
function random() {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// ---- RFC 6902 (add, remove, replace: the operations the server sends) over RFC 6901 pointers.
function applyPatch(doc, ops) {
  const root = { '': structuredClone(doc) };
  for (const op of ops) {
    check(typeof op.path === 'string' && (op.path === '' || op.path.startsWith('/')), `bad patch path ${op.path}`);
    const tokens = op.path === '' ? [] : op.path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let parent = root;
    let key = '';
    for (const t of tokens) {
      parent = parent[key];
      key = t;
      check(parent !== null && typeof parent === 'object', `patch path ${op.path} goes through a non-container`);
    }
    if (Array.isArray(parent)) {
      const last = key === '-';
      const index = last ? parent.length : Number(key);
      check(last || (/^(0|[1-9][0-9]*)$/.test(key) && index <= parent.length), `bad array index in ${op.path}`);
      if (op.op === 'add') parent.splice(index, 0, structuredClone(op.value));
      else if (op.op === 'remove') { check(index < parent.length, `remove past the end: ${op.path}`); parent.splice(index, 1); }
      else if (op.op === 'replace') { check(index < parent.length, `replace past the end: ${op.path}`); parent[index] = structuredClone(op.value); }
      else fatal(`unexpected patch op ${op.op}`);
    } else {
      if (op.op === 'add') parent[key] = structuredClone(op.value);
      else if (op.op === 'remove') { check(key in parent, `remove of a missing member: ${op.path}`); delete parent[key]; }
      else if (op.op === 'replace') { check(key in parent, `replace of a missing member: ${op.path}`); parent[key] = structuredClone(op.value); }
      else fatal(`unexpected patch op ${op.op}`);
    }
  }
  return root[''];
}

// ---- A client: one WebSocket, its view, its sequence number, requests answered by id.
class Client {
  constructor(name) {
    this.name = name;
    this.view = null;
    this.seq = null;
    this.pending = new Map(); // id -> resolvers waiting for an answer with that id, in order
    this.counter = 0;
    this.frames = [];        // every frame received (parsed)
    this.onUpdate = () => {};
    this.closed = null;      // {code, reason} once closed
    this.seqWaiters = [];    // [seq, resolve]: resolved once the view reaches seq
    this.schemaVerdicts = new Map(); // request id -> the schema's refusal of it, or null
  }

  // Resolves once the view has applied the patch numbered `seq` (or a later snapshot).
  reach(seq) {
    return new Promise((resolve) => {
      if (this.seq !== null && this.seq >= seq) resolve();
      else this.seqWaiters.push([seq, resolve]);
    });
  }

  connect() {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(url);
      this.ws.on('open', resolve);
      this.ws.on('error', (e) => reject(new Error(`${this.name}: ${e.message}`)));
      this.ws.on('message', (data, isBinary) => this.receive(data, isBinary));
      this.ws.on('close', (code, reason) => {
        this.closed = { code, reason: reason.toString() };
        if (!this.closing) fatal(`${this.name}: the server closed the connection (${code} ${reason})`);
      });
    });
  }

  log(direction, text) {
    if (trafficFile) appendFileSync(trafficFile, JSON.stringify({ t: Date.now() - started, client: this.name, direction, frame: JSON.parse(text) }) + '\n');
  }

  send(message) {
    const text = JSON.stringify(message);
    this.log('send', text);
    const refusal = wire.check('client', JSON.parse(text));
    if (message.id !== undefined) this.schemaVerdicts.set(message.id, refusal);
    else check(refusal === null, `${this.name}: sent ${refusal}`);
    this.ws.send(text);
  }

  // Sends a message with a fresh id and resolves with the answer carrying that id.
  // Requests go out in order, paced to the rate the server announced in `welcome` (a client
  // that sends faster gets rate_limited errors, then is disconnected).
  request(message) {
    const id = message.id ?? `${this.name}-${++this.counter}`;
    return new Promise((resolve) => {
      if (!this.pending.has(id)) this.pending.set(id, []);
      this.pending.get(id).push(resolve);
      this.outbox = (this.outbox ?? Promise.resolve()).then(() => this.pace()).then(() => this.send({ ...message, id }));
    });
  }

  // A token bucket mirroring the server's, with some margin.
  setLimits(limits) {
    this.rate = limits.message_rate * 0.8;
    this.burst = Math.max(1, limits.message_burst - 5);
    this.tokens = this.burst;
    this.refilled = Date.now();
  }
  async pace() {
    if (!this.rate) return;
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilled) / 1000) * this.rate);
      this.refilled = now;
      if (this.tokens >= 1) { this.tokens -= 1; return; }
      await new Promise((r) => setTimeout(r, ((1 - this.tokens) / this.rate) * 1000 + 1));
    }
  }

  // Resolves with the next frame of a type (already received ones are not considered).
  next(type) {
    return new Promise((resolve) => {
      const start = this.frames.length;
      const poll = () => {
        const found = this.frames.slice(start).find((f) => f.type === type);
        if (found) resolve(found); else setTimeout(poll, 5);
      };
      poll();
    });
  }

  receive(data, isBinary) {
    check(!isBinary, `${this.name}: the server sent a binary frame`);
    const text = data.toString();
    this.log('recv', text);
    let m;
    try { m = JSON.parse(text); } catch { fatal(`${this.name}: a frame is not JSON: ${text.slice(0, 200)}`); }
    check(m && typeof m.type === 'string', `${this.name}: a frame without a type: ${text.slice(0, 200)}`);
    const invalid = wire.check('server', m);
    check(invalid === null, `${this.name}: received ${invalid}\n${text.slice(0, 400)}`);
    if (m.id !== undefined && this.schemaVerdicts.has(m.id)) {
      // The schema rejects exactly what the server rejects for its shape.
      const refusal = this.schemaVerdicts.get(m.id);
      this.schemaVerdicts.delete(m.id);
      const shapeError = m.type === 'error' && SHAPE_ERRORS.has(m.code);
      check(shapeError === (refusal !== null),
        `${this.name}: schema and server disagree on request ${m.id}: schema ${refusal ?? 'accepts it'}; server ${text.slice(0, 300)}`);
    }
    this.frames.push(m);
    // Errors without an id answer nothing this client asked for on purpose (rate_limited, bad_json).
    check(m.type !== 'error' || m.id !== undefined, `${this.name}: unexpected error ${text}`);
    if (m.type === 'snapshot') {
      check(Number.isInteger(m.seq) && m.view && 'room' in m.view && 'game' in m.view, `${this.name}: bad snapshot`);
      check(this.seq === null || m.seq >= this.seq, `${this.name}: snapshot at ${m.seq} older than the view at ${this.seq}`);
      // A snapshot answering a request must equal the view kept by patches up to the same seq.
      if (m.id !== undefined && this.seq === m.seq) {
        check(isDeepStrictEqual(this.view, m.view),
          `${this.name}: the patched view differs from a snapshot at seq ${m.seq}:\n${JSON.stringify(this.view)}\n${JSON.stringify(m.view)}`);
      }
      this.view = m.view;
      this.seq = m.seq;
    } else if (m.type === 'patch') {
      check(this.seq !== null, `${this.name}: a patch before any snapshot`);
      check(m.seq === this.seq + 1, `${this.name}: sequence gap: patch ${m.seq} after ${this.seq}`);
      check(Array.isArray(m.patch) && Array.isArray(m.events), `${this.name}: bad patch frame`);
      this.view = applyPatch(this.view, m.patch);
      this.seq = m.seq;
      // The patches' values are typed by the view they make: check the view they made.
      const badView = wire.check('view', this.view);
      check(badView === null, `${this.name}: the view after patch ${m.seq}: ${badView}`);
      for (const e of m.events) check(typeof e.type === 'string', `${this.name}: an event without a type`);
    }
    if (m.id !== undefined && this.pending.has(m.id)) {
      const waiting = this.pending.get(m.id);
      const resolve = waiting.shift();
      if (waiting.length === 0) this.pending.delete(m.id);
      resolve(m);
    }
    if (m.type === 'snapshot' || m.type === 'patch') {
      this.seqWaiters = this.seqWaiters.filter(([seq, resolve]) => (this.seq >= seq ? (resolve(), false) : true));
      this.onUpdate(this);
    }
  }

  close() {
    return new Promise((resolve) => {
      this.closing = true;
      if (this.closed) return resolve(this.closed);
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      this.ws.close(1000);
    });
  }
}

function expectType(m, type, what) {
  check(m.type === type, `${what}: expected ${type}, got ${JSON.stringify(m)}`);
  return m;
}
function expectError(m, code, what) {
  check(m.type === 'error' && m.code === code && typeof m.message === 'string',
    `${what}: expected error ${code}, got ${JSON.stringify(m)}`);
}

async function hello(c) {
  const w = expectType(await c.request({ type: 'hello', protocol: 1, client: 'node-e2e' }), 'welcome', `${c.name} hello`);
  check(w.protocol === 1 && w.limits && w.limits.max_message_bytes > 0 && w.limits.message_rate > 0, `${c.name}: bad welcome ${JSON.stringify(w)}`);
  c.setLimits(w.limits);
}

const httpBase = url.replace(/^ws/, 'http').replace(/\/ws$/, '');
async function httpGet(path) {
  const res = await fetch(httpBase + path);
  return { status: res.status, body: await res.text() };
}

// ---------------------------------------------------------------------------------------------
const ann = new Client('ann');
let bob = new Client('bob');
const eve = new Client('eve'); // the spectator
await Promise.all([ann.connect(), bob.connect(), eve.connect()]);
await Promise.all([hello(ann), hello(bob), hello(eve)]);
expectType(await ann.request({ type: 'ping' }), 'pong', 'ping');

// Create (with a seed when the server allows scripted rooms), join, watch.
let created = await ann.request({ type: 'create_room', seats: 2, name: 'node e2e', setup: { seed: `node-e2e/${seed}` } });
if (created.type === 'error' && created.code === 'bad_setup') {
  created = await ann.request({ type: 'create_room', seats: 2, name: 'node e2e' });
}
const room = expectType(created, 'room_created', 'create_room').room;
check(typeof room === 'string' && room.length > 0, 'room id');
const listed = expectType(await bob.request({ type: 'list_rooms' }), 'rooms', 'list_rooms');
check(listed.rooms.some((r) => r.id === room && r.state === 'waiting' && r.seats === 2), `room ${room} not listed`);

const joinedA = expectType(await ann.request({ type: 'join', room, name: 'Ann' }), 'joined', 'ann join');
const joinedB = expectType(await bob.request({ type: 'join', room, name: 'Bob' }), 'joined', 'bob join');
check(joinedA.seat === 0 && joinedB.seat === 1 && typeof joinedB.token === 'string' && joinedB.token.length >= 16, 'joined fields');
expectType(await eve.request({ type: 'spectate', room }), 'spectating', 'spectate');
expectError(await eve.request({ type: 'move', move: { type: 'pass' } }), 'not_seated', 'spectator move');
expectError(await bob.request({ type: 'start' }), 'not_creator', 'start by a non-creator');

// Chat reaches everyone in the room.
const chats = [ann, bob, eve].map((c) => c.next('chat'));
expectType(await ann.request({ type: 'chat', text: 'good luck' }), 'chat_sent', 'chat');
for (const m of await Promise.all(chats)) check(m.seat === 0 && m.name === 'Ann' && m.text === 'good luck', 'chat frame');

// The rooms over HTTP.
const http = await httpGet('/api/rooms');
check(http.status === 200 && JSON.parse(http.body).rooms.some((r) => r.id === room), '/api/rooms');
for (const summary of JSON.parse(http.body).rooms) {
  const bad = wire.check('room_summary', summary);
  check(bad === null, `/api/rooms: ${bad}`);
}

// ---- The game. `hold` stops the automatic players while a check needs a quiet room.
let hold = true;
let finished = null;
const finishedPromise = new Promise((resolve) => { finished = resolve; });
let movesSent = 0;

function gameOf(c) { return c.view && c.view.game; }
function toAct(c) {
  const g = gameOf(c);
  return g && g.status === 'playing' && Array.isArray(g.legal_moves) && g.awaiting && g.awaiting.seat === g.viewer;
}

async function play(c) {
  if (hold || c.busy || !toAct(c)) return;
  c.busy = true;
  const g = gameOf(c);
  check(g.legal_moves.length > 0, `${c.name}: no legal moves while to act`);
  const move = g.legal_moves[Math.floor(random() * g.legal_moves.length)];
  const answer = await c.request({ type: 'move', seq: c.seq, move });
  check(answer.type === 'move_accepted', `${c.name}: move ${JSON.stringify(move)} refused: ${JSON.stringify(answer)}`);
  ++movesSent;
  // move_accepted comes before the patch that carries the move: act again only on that view.
  await c.reach(answer.seq);
  c.busy = false;
  await play(c);
}

// The view's game part has these members and no others (docs/protocol.md, "The view").
const gameKeys = new Set(['status', 'expansions', 'turn', 'active', 'awaiting', 'scores', 'players', 'tile',
  'tiles_left', 'board', 'figures', 'discarded', 'viewer', 'legal_moves']);

function watch(c) {
  c.onUpdate = (self) => {
    const g = gameOf(self);
    if (g) for (const k of Object.keys(g)) check(gameKeys.has(k), `${self.name}: unexpected view member game.${k}`);
    if (g && self !== eve) check(!('legal_moves' in g) || g.awaiting.seat === g.viewer, `${self.name}: legal moves while not to act`);
    if (g && g.status === 'finished' && [ann, bob, eve].every((x) => gameOf(x)?.status === 'finished')) finished();
    if (self !== eve) play(self);
  };
}
watch(ann); watch(bob); watch(eve);

expectType(await ann.request({ type: 'start' }), 'started', 'start');
expectError(await ann.request({ type: 'start' }), 'already_started', 'second start');
// Wait until all three views show the game.
while (![ann, bob, eve].every((c) => gameOf(c))) await new Promise((r) => setTimeout(r, 5));
for (const c of [ann, bob]) check(gameOf(c).viewer === (c === ann ? 0 : 1), `${c.name}: viewer`);
check(gameOf(eve).viewer === 'spectator' && !('legal_moves' in gameOf(eve)), 'spectator view');
check(gameOf(ann).awaiting.seat === 0 && gameOf(ann).awaiting.decision === 'place_tile' && typeof gameOf(ann).tile === 'string', 'first turn');

// Refused moves change nothing (the room's seq stays where it is).
{
  const seq0 = ann.seq;
  const first = gameOf(ann).legal_moves[0];
  expectError(await bob.request({ type: 'move', seq: bob.seq, move: { ...first, seat: undefined } }), 'not_your_turn', 'bob out of turn');
  expectError(await bob.request({ type: 'move', move: first }), 'wrong_seat', 'bob names seat 0');
  expectError(await ann.request({ type: 'move', seq: ann.seq + 5, move: first }), 'stale_sequence', 'stale seq');
  expectError(await ann.request({ type: 'move', move: { type: 'place_tile', x: 'a' } }), 'malformed_move', 'malformed move');
  expectError(await ann.request({ type: 'move', move: { type: 'place_tile', x: 40, y: 40, rotation: 0 } }), 'square_not_open', 'far square');
  expectError(await ann.request({ type: 'move', move: { type: 'place_tile', x: first.x, y: first.y, rotation: 45 } }), 'bad_rotation', 'rotation 45');
  const snap = expectType(await ann.request({ type: 'snapshot' }), 'snapshot', 'snapshot');
  check(snap.seq === seq0, 'a refused move changed the room');
}

// A duplicate move (same id) is answered again and applied once.
{
  const move = gameOf(ann).legal_moves[0];
  const message = { type: 'move', id: 'dup-1', seq: ann.seq, move };
  const first = ann.request(message);
  const second = ann.request(message);
  const a1 = expectType(await first, 'move_accepted', 'first copy');
  const a2 = expectType(await second, 'move_accepted', 'duplicate');
  check(a1.seq === a2.seq && a1.seq === ann.seq, `duplicate answered with seq ${a2.seq}, view at ${ann.seq}`);
  const snap = expectType(await ann.request({ type: 'snapshot' }), 'snapshot', 'snapshot after duplicate');
  check(snap.seq === a1.seq, 'the duplicate was applied twice');
  ++movesSent;
}

// Release the players; a few moves later Bob's connection is replaced by a new one.
let resumeDone = false;
const resumeCheck = new Promise((resolve) => {
  const original = bob.onUpdate;
  bob.onUpdate = async (self) => {
    if (!resumeDone && movesSent >= 12 && toAct(self)) {
      resumeDone = true;
      hold = true;
      const old = self;
      const fresh = new Client('bob2');
      await fresh.connect();
      await hello(fresh);
      const replaced = old.next('replaced');
      // The new connection keeps the old one's view: with last_seq, the patches after it come
      // instead of a snapshot when the room still has them (docs/protocol.md §12).
      fresh.view = structuredClone(old.view);
      fresh.seq = old.seq;
      const resumed = expectType(await fresh.request({ type: 'resume', room, token: joinedB.token, last_seq: old.seq }), 'resumed', 'resume');
      check(resumed.seat === 1 && resumed.room === room && resumed.seq >= old.seq, `resumed fields ${JSON.stringify(resumed)}`);
      const r = await replaced;
      check(r.room === room && r.seat === 1, 'replaced fields');
      expectError(await old.request({ type: 'snapshot' }), 'not_in_room', 'replaced connection');
      await old.close();
      // resumed, then the missed patches (or a snapshot) + the resume's own patch
      // (docs/protocol.md §12): act only on the view after that patch, or the move's seq is
      // stale (seen under the sanitizers).
      await fresh.reach(resumed.seq + 1);
      check(gameOf(fresh).viewer === 1 && toAct(fresh), 'the resumed view shows seat 1 to act');
      bob = fresh;
      watch(bob);
      hold = false;
      resolve();
      play(ann); play(bob);
      return;
    }
    original(self);
  };
});

hold = false;
play(ann); play(bob);
await resumeCheck;
await finishedPromise;
hold = true;

// ---- The end: same scores everywhere, patched views equal to fresh snapshots.
const views = [ann, bob, eve].map((c) => gameOf(c));
for (const g of views) {
  check(g.status === 'finished' && g.awaiting === null && g.active === null && !('legal_moves' in g), 'finished view');
  check(isDeepStrictEqual(g.scores, views[0].scores), `scores differ: ${JSON.stringify(views.map((v) => v.scores))}`);
  check(isDeepStrictEqual(g.players.map((p) => p.score), g.scores), 'players[].score equals scores');
}
check(views[0].tiles_left === 0, 'tiles left at the end');
for (const c of [ann, bob, eve]) expectType(await c.request({ type: 'snapshot' }), 'snapshot', `${c.name} final snapshot`);
check(ann.seq === bob.seq && bob.seq === eve.seq, `final seqs differ: ${ann.seq} ${bob.seq} ${eve.seq}`);
expectError(await ann.request({ type: 'move', move: { type: 'pass' } }), 'game_over', 'move after the end');

const metrics = await httpGet('/metrics');
check(metrics.status === 200 && /carcassonne_games_finished_total [1-9]/.test(metrics.body), '/metrics games finished');

expectType(await ann.request({ type: 'leave' }), 'left', 'leave');
for (const c of [ann, bob, eve]) await c.close();
console.log(`node_client: ok: room ${room}, ${movesSent} moves, seq ${eve.seq}, scores ${JSON.stringify(views[0].scores)}, ` +
  `${Date.now() - started} ms (seed ${seed})`);
process.exit(0);
