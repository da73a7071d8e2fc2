// The package against a real server, under Node with the `ws` package (test/run_tests.sh starts
// `carcassonne serve --allow-scripted true`):
//   node test/e2e.mjs ws://127.0.0.1:PORT/ws
// Ann creates a room, Ann and Bob join it and play a whole 2-player base game of seeded random
// legal moves through the package's API alone (views kept by its patches). On the way: Bob's
// socket is cut mid-game and the package reconnects and resumes with his seat token by itself;
// a move sent again with the same id is answered with the first answer and not applied twice;
// a move whose connection drops before its answer is sent again by the package and applied
// once. At the end both views are finished, agree on the scores, and equal a fresh snapshot;
// a new client signed in as Bob (a guest player, §23) resumes his seat without the token.
// Every frame received is checked against the wire schema when Ajv is there (tests/web).
// Exit 0 on success, 1 with a message.
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { Client } from '../src/index.js';

const fail = (why) => { console.error(`client e2e: FAIL: ${why}`); process.exit(1); };
const check = (ok, why) => { if (!ok) fail(why); };
const url = process.argv[2] ?? fail('usage: node test/e2e.mjs ws://HOST:PORT/ws');
setTimeout(() => fail('timed out'), Number(process.env.E2E_TIMEOUT_MS ?? 240000)).unref();

const require = createRequire(import.meta.url);
const WebSocket = require('ws');
const wire = await import('../../../tests/schema/wire_schema.mjs').then((m) => m.loadWireSchema()).catch(() => null);
if (!wire) console.error('client e2e: Ajv not installed (tests/schema/ensure_ajv.sh): frames not checked against the schema');

// A small seeded generator: the same game and moves on every run.
let state = 0x9e3779b9;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

let replacedOk = false; // Bob's first client is replaced at the end, on purpose
function client(name, session = undefined) {
  const c = new Client(url, { WebSocket, clientName: 'client-e2e/1', ...(session ? { session } : {}) });
  c.name = name;
  c.on('message', (m) => {
    const bad = wire?.check('server', m);
    if (bad) fail(`${name} received ${bad}`);
  });
  c.on('error', (m) => fail(`${name}: unsolicited error ${JSON.stringify(m)}`));
  c.on('replaced', () => { if (!replacedOk) fail(`${name}: replaced`); });
  return c;
}
const once = (c, type, pred = () => true) => new Promise((resolve) => {
  const off = c.on(type, (d) => { if (pred(d)) { off(); resolve(d); } });
});
// Resolves once `c`'s view is at `seq` or later.
const reach = (c, seq) => (c.seq !== null && c.seq >= seq ? Promise.resolve() : once(c, 'view', () => c.seq >= seq));
const until = (c, pred) => (pred() ? Promise.resolve() : once(c, 'view', pred));
const gameOf = (c) => c.view?.game;
const toAct = (c) => {
  const g = gameOf(c);
  return !!g && g.status === 'playing' && Array.isArray(g.legal_moves) && g.awaiting?.seat === g.viewer;
};

// Bob plays as a guest player (§23): his seat is also his player's.
const guest = await fetch(new URL('/api/guest', url.replace(/^ws/, 'http')), {
  method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
}).then((r) => r.json());
check(typeof guest.session === 'string', `POST /api/guest: ${JSON.stringify(guest)}`);
const ann = client('Ann');
const bob = client('Bob', guest.session);
for (const c of [ann, bob]) { c.connect(); await once(c, 'welcome'); }
check((await bob.signedIn())?.id === guest.player.id, 'Bob is signed in as his guest player');

const created = await ann.createRoom({ seats: 2, name: 'client e2e', setup: { seed: 'client-e2e' } });
check(created.type === 'room_created', `create_room: ${JSON.stringify(created)}`);
const room = created.room;
const joinedA = await ann.join(room, { name: 'Ann' });
const joinedB = await bob.join(room, { name: 'Bob' });
check(joinedA.type === 'joined' && joinedB.type === 'joined', `join: ${JSON.stringify([joinedA, joinedB])}`);
check(ann.seat === 0 && bob.seat === 1 && typeof bob.token === 'string', 'seats 0 and 1 with a token');

let moves = 0;
let hold = false; // a check of its own is under way: the players wait
let finished;
const done = new Promise((resolve) => { finished = resolve; });
const special = { dropped: false, duplicated: false, retried: false };

async function play(c) {
  if (hold || c.busy || !toAct(c)) return;
  c.busy = true;
  const g = gameOf(c);
  const move = g.legal_moves[Math.floor(random() * g.legal_moves.length)];
  let answer;
  if (c === ann && !special.duplicated && moves >= 6 && move.type === 'place_tile') answer = await duplicate(c, move);
  else if (c === ann && !special.retried && moves >= 30) answer = await retryAcrossDrop(c, move);
  else answer = await c.move(move);
  check(answer.type === 'move_accepted', `${c.name}: move ${JSON.stringify(move)} refused: ${JSON.stringify(answer)}`);
  ++moves;
  await reach(c, answer.seq); // move_accepted comes before the patch that carries the move
  c.busy = false;
  if (c === bob && !special.dropped && moves >= 15) await dropBob();
  void play(c);
}

// The same move message twice: the second answer is the first one, and nothing is applied again.
async function duplicate(c, move) {
  special.duplicated = true;
  const message = { type: 'move', id: 'e2e-dup', seq: c.seq, move };
  const first = await c.request(message);
  check(first.type === 'move_accepted', `first copy: ${JSON.stringify(first)}`);
  await reach(c, first.seq);
  const board = gameOf(c).board.length;
  const second = await c.request(message);
  check(isDeepStrictEqual(second, first), `second copy answered ${JSON.stringify(second)}, first ${JSON.stringify(first)}`);
  const pong = await c.request({ type: 'ping' }); // any patch of the second copy would come before
  check(pong.type === 'pong', 'pong');
  check(c.seq === first.seq && gameOf(c).board.length === board, 'the second copy changed nothing');
  return first;
}

// A move whose answer is lost: the socket is cut when `move_accepted` arrives, before the package
// sees it. The package reconnects, resumes and sends the same message again (same id): the
// server answers with the first answer, and the move is on the board once.
async function retryAcrossDrop(c, move) {
  special.retried = true;
  const states = [];
  const off = c.on('status', (s) => states.push(s.state));
  const before = c.seq;
  const ws = c.ws;
  const deliver = ws.onmessage;
  let lost = null;
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data));
    if (m.type === 'move_accepted' && lost === null) { lost = m; ws.terminate(); return; }
    deliver(e);
  };
  const result = await c.move(move);
  off();
  check(lost !== null, 'the first answer was cut off');
  check(states.includes('closed') && states.includes('open'), `the connection came back (${states})`);
  check(isDeepStrictEqual(result, lost), `the retried move was answered ${JSON.stringify(result)}, first ${JSON.stringify(lost)}`);
  check(result.seq === before + 1, `the move was applied once, at ${before + 1}: ${JSON.stringify(result)}`);
  await reach(c, result.seq);
  if (move.type === 'place_tile') {
    const placed = gameOf(c).board.filter((t) => t.x === move.x && t.y === move.y).length;
    check(placed === 1, `the retried tile is on the board once (${placed})`);
  }
  return result;
}

// Bob's socket is cut: the package reconnects (backoff) and resumes his seat with its token.
async function dropBob() {
  special.dropped = true;
  hold = true;
  const seq = bob.seq;
  const back = once(bob, 'membership', (m) => m.type === 'seat');
  bob.ws.terminate();
  await until(ann, () => ann.view.room.seats[1].connected === false); // Ann saw Bob away
  const away = ann.seq;
  await back;
  check(bob.inRoom && bob.mode === 'seat' && bob.seat === 1 && bob.seq >= seq, 'Bob is back on his seat');
  // Bob's own view shows him back only with the patch after his absence's: the view he had
  // before the drop showed him connected too, and a move made from it is stale.
  await until(bob, () => bob.seq > away && bob.view?.room.seats[1].connected === true);
  hold = false;
  void play(ann);
  void play(bob);
}

for (const c of [ann, bob]) {
  c.on('view', () => {
    void play(c);
    if ([ann, bob].every((x) => gameOf(x)?.status === 'finished')) finished();
  });
}
const started = await ann.request({ type: 'start' });
check(started.type === 'started', `start: ${JSON.stringify(started)}`);
await done;

check(special.dropped && special.duplicated && special.retried, `every check ran: ${JSON.stringify(special)}`);
await reach(ann, bob.seq);
await reach(bob, ann.seq);
const [ga, gb] = [gameOf(ann), gameOf(bob)];
check(isDeepStrictEqual(ga.scores, gb.scores), `scores differ: ${JSON.stringify([ga.scores, gb.scores])}`);
check(ga.board.length === gb.board.length && ga.board.length > 60, `a whole game: ${ga.board.length} tiles`);
for (const c of [ann, bob]) {
  const kept = c.view;
  const snap = await c.request({ type: 'snapshot' });
  check(snap.type === 'snapshot' && isDeepStrictEqual(snap.view, kept), `${c.name}: the patched view differs from a snapshot`);
}
// A new client signed in as Bob takes his seat without the token; the first one is told.
replacedOk = true;
const bobAgain = client('Bob again', guest.session);
bobAgain.connect();
await once(bobAgain, 'welcome');
const told = once(bob, 'replaced');
const resumed = await bobAgain.resume(room, null);
check(resumed?.type === 'resumed' && resumed.seat === 1 && bobAgain.token === null, `resume signed in: ${JSON.stringify(resumed)}`);
await told;
await until(bobAgain, () => bobAgain.view !== null);
check(isDeepStrictEqual(bobAgain.view.game, bob.view.game), 'the seat resumed signed in shows the same game');
bobAgain.close();
console.log(`client e2e: ok: ${moves} moves, ${ga.board.length} tiles, scores ${JSON.stringify(ga.scores)}`);
ann.close();
bob.close();
