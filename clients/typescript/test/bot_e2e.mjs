// The example bot (examples/bot.mjs) against a real server (test/run_tests.sh starts it):
//   node test/bot_e2e.mjs ws://127.0.0.1:PORT/ws
// Two bot accounts are made through the example's own registration (a guest, a claimed name,
// POST /api/me/bot); two instances of the example run as programs, one creating a rated room and
// the other joining it by its id, and play a whole game to the end, the second through a proxy
// that cuts its connection mid-game (the package reconnects and resumes the seat, signed in). Then the HTTP API shows the
// game rated, both players marked as bots in their profiles, the leaderboard and the game list.
// On the way: a guest cannot become a bot, a bot not twice, a new token replaces the old one, and
// a bot's seek is refused (bots do not use quick play). Exit 0 on success, 1 with a message.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client } from '../src/index.js';
import { registerBot } from '../examples/outside_bot.mjs';

const fail = (why) => { console.error(`bot e2e: FAIL: ${why}`); process.exit(1); };
const check = (ok, why) => { if (!ok) fail(why); };
const url = process.argv[2] ?? fail('usage: node test/bot_e2e.mjs ws://HOST:PORT/ws');
setTimeout(() => fail('timed out'), Number(process.env.E2E_TIMEOUT_MS ?? 240000)).unref();
const http = url.replace(/^ws/, 'http').replace(/\/ws$/, '');
const example = fileURLToPath(new URL('../examples/bot.mjs', import.meta.url));
const WebSocket = createRequire(import.meta.url)('ws');

const get = (path, bearer) => fetch(`${http}${path}`, bearer ? { headers: { Authorization: `Bearer ${bearer}` } } : {})
  .then(async (r) => ({ status: r.status, body: await r.json() }));
const post = (path, body, bearer) => fetch(`${http}${path}`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
  body: JSON.stringify(body),
}).then(async (r) => ({ status: r.status, body: await r.json() }));

// The upgrade's refusals: a guest, then a bot a second time.
const guest = await post('/api/guest', {});
const asGuest = await post('/api/me/bot', {}, guest.body.session);
check(asGuest.status === 403 && asGuest.body.error === 'guest_account', `a guest became a bot: ${JSON.stringify(asGuest)}`);
check((await post('/api/me/bot', {})).body.error === 'bad_session', 'no session, no bot');

const one = await registerBot(http, 'Robo Ann', 'tiles and meeples');
const two = await registerBot(http, 'Robo Bob', 'tiles and meeples');
for (const b of [one, two]) {
  check(b.player.bot === true && b.player.guest === false, `not a bot: ${JSON.stringify(b.player)}`);
  check(/^bot_[0-9a-f]{64}$/.test(b.token), `token ${b.token}`);
}
const again = await post('/api/me/bot', {}, one.token);
check(again.status === 409 && again.body.error === 'already_bot', `a bot twice: ${JSON.stringify(again)}`);
check((await post('/api/me/bot/token', {}, guest.body.session)).body.error === 'not_a_bot', 'a guest has no token');
// A new token replaces the old one.
const rotated = await post('/api/me/bot/token', {}, one.token);
check(rotated.status === 200 && rotated.body.token !== one.token, `new token: ${JSON.stringify(rotated)}`);
check((await get('/api/me', one.token)).status === 401, 'the old token is refused');
const me = await get('/api/me', rotated.body.token);
check(me.status === 200 && me.body.player.bot === true && me.body.player.id === one.player.id, `GET /api/me: ${JSON.stringify(me)}`);
one.token = rotated.body.token;

// A bot does not seek: quick play is people's.
const seeker = new Client(url, { WebSocket, session: two.token });
const welcomed = new Promise((resolve) => { seeker.on('welcome', resolve); });
seeker.connect();
await welcomed;
check((await seeker.signedIn())?.bot === true, 'the bot signs in on the WebSocket by its token');
const seek = await seeker.request({ type: 'seek' });
check(seek.type === 'error' && seek.code === 'bot_account', `a bot's seek: ${JSON.stringify(seek)}`);
seeker.close();

// Two instances of the example play each other: the first creates the room, the second joins it.
function run(args, name, server = http) {
  const child = spawn(process.execPath, [example, '--server', server, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let buffer = '';
  const listeners = [];
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const l of listeners) l(line);
    }
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const line = (event) => new Promise((resolve) => {
    const found = lines.find((l) => l.event === event);
    if (found) resolve(found); else listeners.push((l) => { if (l.event === event) resolve(l); });
  });
  exited.then((code) => { if (code !== 0) fail(`${name} exited with ${code}`); });
  return { line, exited };
}
// The second reaches the server through a proxy that cuts its first connection mid-game: the
// package reconnects by itself and the bot plays on from its seat.
const upstream = new URL(http);
const connections = [];
let cut = false;
let total = 0; // bytes from the server to the second bot, over all its connections
const proxy = net.createServer((down) => {
  const up = net.connect(Number(upstream.port), upstream.hostname);
  const index = connections.push(down) - 1;
  let received = 0;
  up.on('data', (chunk) => { total += chunk.length; });
  down.on('error', () => up.destroy());
  up.on('error', () => down.destroy());
  down.on('close', () => up.destroy());
  up.on('close', () => down.destroy());
  down.pipe(up);
  up.on('data', (chunk) => {
    received += chunk.length;
    // 40 KB of frames: about a third of a game (some 130 KB), far from its end.
    if (index === 0 && received > 40000 && !cut) { cut = true; down.destroy(); up.destroy(); return; }
    down.write(chunk);
  });
});
await new Promise((resolve) => { proxy.listen(0, '127.0.0.1', resolve); });
const proxied = `http://127.0.0.1:${proxy.address().port}`;

const first = run(['--token', one.token, '--seats', '2'], 'the first bot');
const { room } = await first.line('room');
const second = run(['--token', two.token, '--room', room], 'the second bot', proxied);
const [endA, endB] = await Promise.all([first.line('finished'), second.line('finished')]);
check(await first.exited === 0 && await second.exited === 0, 'both bots exit 0');
check(cut && connections.length >= 2, `the second bot was cut off mid-game and came back (${connections.length} connections)`);
proxy.close();
check(endA.room === room && endB.room === room, 'the same room');
check(JSON.stringify(endA.scores) === JSON.stringify(endB.scores), `scores differ: ${JSON.stringify([endA, endB])}`);
const record = await get(`/api/rooms/${room}/record`);
check(record.status === 200 && record.body.moves.length > 60, `a whole game: ${record.body.moves?.length} moves`);
const seated = record.body.setup.players.map((p) => p.player);
check(JSON.stringify(seated) === JSON.stringify([one.player.id, two.player.id]), `the record's players: ${JSON.stringify(seated)}`);

// Rated like any player's game, and marked as bots wherever a player is shown.
let profile;
for (let i = 0; i < 100; ++i) { // the rating is written with the game's last save
  profile = await get(`/api/players/${one.player.id}`);
  if (profile.body.ratings?.length === 1) break;
  await new Promise((resolve) => { setTimeout(resolve, 50); });
}
check(profile.body.player.bot === true, `profile: ${JSON.stringify(profile.body.player)}`);
const rating = profile.body.ratings[0];
check(rating?.pool === 'duel' && rating.games === 1 && rating.history[0].room === room, `rating: ${JSON.stringify(rating)}`);
const other = await get(`/api/players/${two.player.id}`);
check(other.body.player.bot === true && other.body.ratings[0]?.games === 1, `the second bot: ${JSON.stringify(other.body)}`);
const board = await get('/api/leaderboards/duel?limit=100');
for (const b of [one, two]) {
  const row = board.body.players.find((p) => p.player.id === b.player.id);
  check(row?.player.bot === true && row.player.name === b.player.name, `leaderboard: ${JSON.stringify(row)}`);
}
const games = await get(`/api/games?player=${one.player.id}`);
const game = games.body.games[0];
check(game?.room === room && game.rated === true && game.pool === 'duel', `game list: ${JSON.stringify(game)}`);
check(game.seats.every((s) => s.bot === true), `seats marked as bots: ${JSON.stringify(game.seats)}`);
console.log(`bot e2e: ok: room ${room}, scores ${JSON.stringify(endA.scores)}, ${one.player.name} rated ${rating.rating.toFixed(1)}; the second bot's ${connections.length} connections carried ${total} bytes`);
