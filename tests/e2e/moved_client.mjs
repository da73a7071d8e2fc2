// The web page's connection (server/web/js/protocol.js) in a cluster of two instances, through
// the door that does not hold the rooms: it follows `moved` by itself (docs/protocol.md §22).
//   node moved_client.mjs ws://DOOR/ws ws://OWNER/ws REDIS_PORT
// DOOR's create_room is placed on OWNER (the least loaded: ties by id); Bob joins through DOOR
// and ends at OWNER; his connection drops, comes back through DOOR, and resumes at OWNER with
// his seat token. Then a room whose lease names a dead instance (set in Redis by hand): the
// connection waits on `room_unavailable`, asking again, until the lease is gone and the room
// turns out unknown; a join of such a room waits the same way. Exits 0 when all of that happened, 1 otherwise.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const fail = (why) => { console.error(`moved_client: FAIL: ${why}`); process.exit(1); };
const require = createRequire(import.meta.url);
function loadWs() {
  // A node_modules folder or NODE_PATH (the script sets it), then Debian's node-ws.
  for (const name of ['ws', '/usr/share/nodejs/ws']) {
    try { return require(name); } catch { /* next */ }
  }
  fail('cannot load the "ws" package: apt-get install node-ws (scripts/install-deps.sh test)');
}
// Every frame the page's code sends and receives is checked against the wire schema (docs/schema/).
const { loadWireSchema } = await import('../schema/wire_schema.mjs')
  .catch((e) => fail(`cannot load the wire schema's validator (tests/schema/ensure_ajv.sh): ${e.message}`));
const wire = loadWireSchema();
const Ws = loadWs();
globalThis.WebSocket = class CheckedWebSocket extends Ws {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (e) => {
      const bad = wire.check('server', JSON.parse(String(e.data)));
      if (bad) fail(`received ${bad}`);
    });
  }
  send(text) {
    const bad = wire.check('client', JSON.parse(text));
    if (bad) fail(`sent ${bad}`);
    super.send(text);
  }
};
const { Connection } = await import('../../server/web/js/protocol.js');

const [door, owner, redisPort] = process.argv.slice(2);
const redis = (...args) => execFileSync('redis-cli', ['-p', redisPort, ...args]).toString().trim();
setTimeout(() => fail('timed out'), 20000).unref();

async function until(what, done) {
  for (let i = 0; i < 400; ++i) {
    if (done()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  fail(`waited in vain for ${what}`);
}

async function opened(url) {
  const c = new Connection(url);
  c.connect();
  await until(`hello at ${url}`, () => c.welcomed);
  return c;
}

const ann = await opened(door);
const created = await ann.request({ type: 'create_room', seats: 2, setup: {} });
if (created.type !== 'room_created') fail(`create_room: ${JSON.stringify(created)}`);
if (ann.url !== owner) fail(`the room was created at ${ann.url}, not at ${owner}`);
const room = created.room;
const annSeat = await ann.join(room, 'Ann');
if (annSeat.type !== 'joined') fail(`Ann's join: ${JSON.stringify(annSeat)}`);

const bob = await opened(door);
const seat = await bob.join(room, 'Bob');
if (seat.type !== 'joined' || bob.url !== owner) fail(`Bob's join: ${JSON.stringify(seat)} at ${bob.url}`);
await until("Bob's snapshot", () => bob.view !== null);

// The connection drops: it comes back through the door, which moves it to the owner again.
const moves = [];
bob.addEventListener('membership', (e) => moves.push(e.detail.type));
bob.ws.close();
await until('Bob back in his seat', () => bob.inRoom && bob.state === 'open' && moves.includes('seat'));
if (bob.url !== owner || bob.token !== seat.token || bob.seat !== seat.seat)
  fail(`Bob resumed at ${bob.url} with seat ${bob.seat}`);

// A room of a dead instance, not adopted yet: `room_unavailable`, asked again and again; once
// its lease is gone (and no store knows the room) the answer is final.
const ghost = 'ghostroom01';
if (redis('SET', `carcassonne:lease:${ghost}`, 'ghost 1', 'PX', '60000') !== 'OK') fail('cannot set the ghost lease');
const carol = await opened(door);
const waits = [], refusals = [];
carol.addEventListener('notice', (e) => { if (e.detail.text.includes('being replaced')) waits.push(e.detail.text); });
carol.addEventListener('membership', (e) => { if (e.detail.type === 'refused') refusals.push(e.detail); });
const entered = carol.enterRoom(ghost, 'f'.repeat(64));
await until('Carol asking again', () => waits.length >= 2);
if (refusals.length) fail(`refused while the room was unavailable: ${JSON.stringify(refusals)}`);
redis('DEL', `carcassonne:lease:${ghost}`);
const last = await entered;
if (last?.code !== 'no_such_room' || refusals.length !== 1) fail(`after the lease: ${JSON.stringify(last)}`);

// The same for a join (the lobby's "Join"): asked again while unavailable, then the final answer.
const ghost2 = 'ghostroom02';
if (redis('SET', `carcassonne:lease:${ghost2}`, 'ghost 1', 'PX', '60000') !== 'OK') fail('cannot set the second ghost lease');
const dave = await opened(door);
const daveWaits = [];
dave.addEventListener('notice', (e) => { if (e.detail.text.includes('being replaced')) daveWaits.push(e.detail.text); });
const joining = dave.join(ghost2, 'Dave');
await until('Dave asking again', () => daveWaits.length >= 2);
redis('DEL', `carcassonne:lease:${ghost2}`);
const daveLast = await joining;
if (daveLast?.code !== 'no_such_room' || dave.room !== null) fail(`Dave's join after the lease: ${JSON.stringify(daveLast)}`);
console.log(`moved_client: room ${room} made and joined at ${owner} through ${door}; Bob resumed there; ` +
  `Carol waited ${waits.length} times and Dave's join ${daveWaits.length} times on a dead instance's room`);
process.exit(0);
