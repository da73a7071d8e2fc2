// The client against a fake socket and a fake clock: the test plays the server.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { Client, ConnectionLost } from '../src/index.js';
import { FakeSocket, FakeClock, settle, welcome } from './fakes.mjs';

const ROOM = 'r1';
const VIEW = { room: { id: ROOM, n: 0 }, game: { board: [] } };
let clock;
beforeEach(() => { FakeSocket.all = []; clock = new FakeClock(); });
const newClient = (options = {}) => new Client('ws://door/ws', { WebSocket: FakeSocket, clock, ...options });

// A connected client seated in ROOM with `view` at `seq`.
async function seated(seq = 4, options = {}) {
  const c = newClient(options);
  c.connect();
  const s = FakeSocket.last();
  await welcome(s);
  const resumed = c.resume(ROOM, 'tok');
  await settle();
  const ask = s.lastSent();
  assert.deepEqual(ask, { type: 'resume', room: ROOM, token: 'tok', id: ask.id });
  s.deliver({ type: 'resumed', id: ask.id, room: ROOM, seat: 1, seq });
  s.deliver({ type: 'snapshot', room: ROOM, seq, view: VIEW });
  await resumed;
  return { c, s };
}

test('hello, then the view from a snapshot and the patches after it', async () => {
  const { c, s } = await seated(4);
  assert.equal(s.sent[0].type, 'hello');
  assert.equal(s.sent[0].protocol, 1);
  assert.equal(c.seat, 1);
  const views = [];
  c.on('view', (v) => views.push(v));
  s.deliver({ type: 'patch', room: ROOM, seq: 5, events: [{ type: 'turn_started', seat: 0 }], patch: [{ op: 'replace', path: '/room/n', value: 5 }] });
  s.deliver({ type: 'patch', room: ROOM, seq: 6, events: [], patch: [{ op: 'add', path: '/game/board/-', value: 'a' }] });
  assert.equal(c.seq, 6);
  assert.deepEqual(c.view, { room: { id: ROOM, n: 5 }, game: { board: ['a'] } });
  assert.deepEqual(views, [{ events: [{ type: 'turn_started', seat: 0 }], snapshot: false }, { events: [], snapshot: false }]);
  c.close();
});

test('a gap in seq asks for a snapshot and ignores patches until it comes', async () => {
  const { c, s } = await seated(4);
  const before = s.sent.length;
  s.deliver({ type: 'patch', room: ROOM, seq: 6, events: [], patch: [{ op: 'replace', path: '/room/n', value: 6 }] });
  await settle();
  assert.equal(s.sent.length, before + 1);
  const ask = s.lastSent();
  assert.equal(ask.type, 'snapshot');
  assert.equal(c.seq, 4, 'the patch after the gap is not applied');
  s.deliver({ type: 'patch', room: ROOM, seq: 7, events: [], patch: [{ op: 'replace', path: '/room/n', value: 7 }] });
  assert.equal(c.seq, 4, 'nor any other until the snapshot');
  s.deliver({ type: 'snapshot', id: ask.id, room: ROOM, seq: 7, view: { room: { id: ROOM, n: 7 }, game: { board: [] } } });
  s.deliver({ type: 'patch', room: ROOM, seq: 8, events: [], patch: [{ op: 'replace', path: '/room/n', value: 8 }] });
  assert.equal(c.seq, 8);
  assert.equal(c.view.room.n, 8);
  assert.equal(s.sent.length, before + 1, 'one snapshot asked for');
  c.close();
});

test('a patch that does not apply asks for a snapshot too', async () => {
  const { c, s } = await seated(4);
  s.deliver({ type: 'patch', room: ROOM, seq: 5, events: [], patch: [{ op: 'add', path: '/room/id/x', value: 1 }] });
  await settle();
  assert.equal(s.lastSent().type, 'snapshot');
  assert.equal(c.seq, 4);
  c.close();
});

test('reconnects with backoff (0.5 s doubling to 8 s, reset by a welcome) and resumes with last_seq', async () => {
  const { c, s } = await seated(4);
  const statuses = [];
  c.on('status', (x) => statuses.push(x.state));
  s.drop();
  await settle();
  assert.equal(c.state, 'closed');
  await clock.advance(499);
  assert.equal(FakeSocket.all.length, 1, 'no new socket before 500 ms');
  await clock.advance(1);
  assert.equal(FakeSocket.all.length, 2);
  FakeSocket.last().drop(); // refused: the next try waits longer
  await settle();
  await clock.advance(999);
  assert.equal(FakeSocket.all.length, 2);
  await clock.advance(1);
  assert.equal(FakeSocket.all.length, 3);
  const s3 = FakeSocket.last();
  assert.equal(s3.url, 'ws://door/ws');
  await welcome(s3);
  const ask = s3.lastSent();
  assert.deepEqual(ask, { type: 'resume', room: ROOM, token: 'tok', last_seq: 4, id: ask.id });
  s3.deliver({ type: 'resumed', id: ask.id, room: ROOM, seat: 1, seq: 5 });
  s3.deliver({ type: 'patch', room: ROOM, seq: 5, events: [], patch: [{ op: 'replace', path: '/room/n', value: 5 }] });
  await settle();
  assert.equal(c.seq, 5);
  assert.equal(c.inRoom, true);
  assert.deepEqual(statuses, ['closed', 'connecting', 'closed', 'connecting', 'open']);
  s3.drop();
  await settle();
  await clock.advance(500);
  assert.equal(FakeSocket.all.length, 4, 'back to 500 ms after a welcome');
  c.close();
  assert.equal(clock.timers.length, 0, 'close() leaves no timer');
});

test('resumeMissed: false resumes without last_seq', async () => {
  const { c, s } = await seated(4, { resumeMissed: false });
  s.drop();
  await settle();
  await clock.advance(500);
  await welcome(FakeSocket.last());
  const ask = FakeSocket.last().lastSent();
  assert.equal(ask.type, 'resume');
  assert.equal('last_seq' in ask, false);
  c.close();
});

test('`moved` is followed once: the same request at the named instance, with moved: true', async () => {
  const c = newClient();
  c.connect();
  const door = FakeSocket.last();
  await welcome(door);
  const joined = c.join(ROOM, { name: 'Bob' });
  await settle();
  const first = door.lastSent();
  assert.deepEqual(first, { type: 'join', room: ROOM, name: 'Bob', id: first.id });
  door.deliver({ type: 'moved', id: first.id, room: ROOM, url: 'ws://owner/ws' });
  await settle();
  const owner = FakeSocket.last();
  assert.equal(owner.url, 'ws://owner/ws');
  assert.equal(door.readyState, 3, 'the door is closed');
  await welcome(owner);
  const again = owner.lastSent();
  assert.deepEqual(again, { type: 'join', room: ROOM, name: 'Bob', moved: true, id: again.id });
  // A second `moved` is not followed: it is the answer.
  owner.deliver({ type: 'moved', id: again.id, room: ROOM, url: 'ws://third/ws' });
  const answer = await joined;
  assert.equal(answer.type, 'moved');
  assert.equal(FakeSocket.all.length, 2);
  c.close();
});

test('a move has an id; after a drop the same message is sent again once the seat is back', async () => {
  const { c, s } = await seated(4);
  const move = { type: 'place_tile', seat: 1, x: 1, y: 0, rotation: 0 };
  const answered = c.move(move);
  await settle();
  const sent = s.lastSent();
  assert.equal(sent.type, 'move');
  assert.equal(sent.seq, 4);
  assert.match(String(sent.id), /^m/);
  s.drop();
  await settle();
  await clock.advance(500);
  const s2 = FakeSocket.last();
  await welcome(s2);
  const resume = s2.lastSent();
  s2.deliver({ type: 'resumed', id: resume.id, room: ROOM, seat: 1, seq: 4 });
  await settle();
  const again = s2.lastSent();
  assert.deepEqual(again, sent, 'the same message, the same id');
  s2.deliver({ type: 'move_accepted', id: sent.id, seq: 5 });
  assert.deepEqual(await answered, { type: 'move_accepted', id: sent.id, seq: 5 });
  // Each move has its own id.
  const second = c.move(move);
  await settle();
  assert.notEqual(s2.lastSent().id, sent.id);
  s2.deliver({ type: 'error', id: s2.lastSent().id, code: 'not_your_turn', message: 'no' });
  assert.equal((await second).type, 'error');
  c.close();
});

test('a move whose seat does not come back rejects with ConnectionLost', async () => {
  const { c, s } = await seated(4, { moveRetryWaitMs: 3000 });
  const answered = c.move({ type: 'pass', seat: 1 });
  await settle();
  s.drop();
  const rejected = assert.rejects(answered, ConnectionLost);
  await settle();
  await clock.advance(3000); // two refused reconnections meanwhile
  FakeSocket.all.slice(1).forEach((x) => x.drop());
  await clock.advance(1);
  await rejected;
  c.close();
});

test('errors, chat, replaced and room_moved arrive as typed events', async () => {
  const { c, s } = await seated(4);
  const seen = [];
  for (const type of ['error', 'chat', 'replaced', 'membership', 'room_moved']) c.on(type, (d) => seen.push([type, d]));
  s.deliver({ type: 'error', code: 'rate_limited', message: 'slow down' });
  s.deliver({ type: 'chat', room: ROOM, seat: 0, name: 'Ann', text: 'hi' });
  s.deliver({ type: 'replaced', room: ROOM, seat: 1 });
  assert.deepEqual(seen, [
    ['error', { type: 'error', code: 'rate_limited', message: 'slow down' }],
    ['chat', { type: 'chat', room: ROOM, seat: 0, name: 'Ann', text: 'hi' }],
    ['replaced', { type: 'replaced', room: ROOM, seat: 1 }],
    ['membership', { type: 'replaced', room: ROOM }],
  ]);
  // After `replaced` the seat is not taken back by a reconnection.
  s.drop();
  await settle();
  await clock.advance(500);
  await welcome(FakeSocket.last());
  assert.equal(FakeSocket.last().lastSent().type, 'hello');
  c.close();
});

test('requests are paced to the welcome\'s rate and burst', async () => {
  const c = newClient();
  c.connect();
  const s = FakeSocket.last();
  s.open();
  await settle();
  s.deliver({ type: 'welcome', id: s.lastSent().id, protocol: 1, server: 'fake', limits: { max_message_bytes: 1000, message_rate: 4, message_burst: 2 } });
  await settle();
  const before = s.sent.length;
  for (let i = 0; i < 4; ++i) c.request({ type: 'ping' }).catch(() => {});
  await settle();
  assert.equal(s.sent.length, before + 2, 'a burst of 2 at once');
  await clock.advance(249);
  assert.equal(s.sent.length, before + 2);
  await clock.advance(1);
  assert.equal(s.sent.length, before + 3, 'then one each 250 ms');
  await clock.advance(250);
  assert.equal(s.sent.length, before + 4);
  assert.deepEqual(s.sent.slice(before).map((m) => m.id), ['w2', 'w3', 'w4', 'w5'], 'in order');
  c.close();
});

test('room_moved closes the socket and comes back through the door to resume', async () => {
  const { c, s } = await seated(4);
  const moved = [];
  c.on('room_moved', (d) => moved.push(d));
  s.deliver({ type: 'error', code: 'room_moved', message: 'the room moved' });
  await settle();
  assert.deepEqual(moved, [{ room: ROOM }]);
  assert.equal(s.readyState, 3);
  await clock.advance(500);
  await welcome(FakeSocket.last());
  assert.equal(FakeSocket.last().lastSent().type, 'resume');
  c.close();
});

test('with a session each socket authenticates first, and a resume without a token waits for it', async () => {
  const c = newClient({ session: 'sess' });
  const players = [];
  c.on('authenticated', (a) => players.push(a.player?.id ?? a.error?.code));
  c.connect();
  let s = FakeSocket.last();
  await welcome(s);
  const auth = s.lastSent();
  assert.deepEqual(auth, { type: 'authenticate', session: 'sess', id: auth.id });
  const resumed = c.resume(ROOM, null);
  await settle();
  assert.equal(s.lastSent(), auth, 'the resume waits for the authentication');
  s.deliver({ type: 'authenticated', id: auth.id, player: { id: 'p1', name: 'Ann', guest: true, bot: false } });
  await settle();
  const ask = s.lastSent();
  assert.deepEqual(ask, { type: 'resume', room: ROOM, id: ask.id }, 'no token: the signed-in player\'s seat');
  s.deliver({ type: 'resumed', id: ask.id, room: ROOM, seat: 0, seq: 3 });
  await resumed;
  assert.equal(c.seat, 0);
  // After a drop: hello, authenticate, then resume.
  s.drop();
  await settle();
  await clock.advance(500);
  s = FakeSocket.last();
  await welcome(s);
  assert.equal(s.lastSent().type, 'authenticate');
  s.deliver({ type: 'error', id: s.lastSent().id, code: 'bad_session', message: 'expired' });
  await settle();
  assert.equal(s.lastSent().type, 'resume');
  assert.deepEqual(players, ['p1', 'bad_session']);
  assert.equal(c.player, null);
  c.close();
});
