#!/usr/bin/env node
// Soak of bots-only rooms whose creators left (a benchmark, not a test): starts
// `carcassonne serve` (journal on, in a temporary folder), keeps ROOMS bots-only games going (a
// creator connects, creates a 2-seat room of random bots, spectates, starts it, leaves and
// disconnects; a new room replaces each finished one), and every SAMPLE seconds prints the
// server's resident memory and the rooms it holds (/metrics `carcassonne_rooms`). At the end: the
// figures against minute 1 (docs/hosting.md "Memory").
//
//   node tests/bench/bots_soak.mjs build/carcassonne [SECONDS=600] [ROOMS=40] [PAUSE_MS=100] [SAMPLE=30]
//
// Needs Node's `ws` (Debian's node-ws). Exit 0 when the rooms held never exceeded 2 × ROOMS and
// the memory stayed within 50 MB of minute 1, else 1.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const WebSocket = (() => {
  for (const name of ['ws', '/usr/share/nodejs/ws']) {
    try { return require(name); } catch { /* next */ }
  }
  console.error('cannot load the "ws" package: apt-get install node-ws');
  process.exit(2);
})();

const [bin, seconds = '600', roomsArg = '40', pauseArg = '100', sampleArg = '30'] =
  process.argv.slice(2);
if (!bin) {
  console.error('usage: bots_soak.mjs path/to/carcassonne [SECONDS] [ROOMS] [PAUSE_MS] [SAMPLE]');
  process.exit(2);
}
const duration = Number(seconds) * 1000, wanted = Number(roomsArg);
const pause = Number(pauseArg), sampleEvery = Number(sampleArg) * 1000;

const data = mkdtempSync(join(tmpdir(), 'carcassonne-bots-soak-'));
const server = spawn(bin, ['serve', '--address', '127.0.0.1', '--port', '0', '--threads', '2',
  '--log-level', 'info', '--data-dir', data, '--journal-sync', 'normal'],
  { stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
const port = await new Promise((resolve, reject) => {
  const look = (chunk) => {
    log += chunk;
    const m = /listening on 127\.0\.0\.1:(\d+)/.exec(log);
    if (m) resolve(Number(m[1]));
  };
  server.stdout.on('data', look);
  server.stderr.on('data', look);
  server.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
});
// Past start-up the log is not kept: a long soak would hold all of it.
server.stdout.removeAllListeners('data');
server.stderr.removeAllListeners('data');
server.stdout.resume();
server.stderr.resume();

async function metrics() {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (name) => Number((new RegExp(`^${name} (\\S+)$`, 'm').exec(text) || [])[1]);
  return { rooms: value('carcassonne_rooms'), finished: value('carcassonne_games_finished_total') };
}

// Resident memory, and its anonymous part (the heap: the file-backed rest is mostly the
// database's pages, which grow with the games stored and the kernel may reclaim).
function rssMb() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon') };
}

// One creator: create, spectate, start, leave, disconnect. Resolves once it has left.
function oneRoom() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    let id = 0;
    const steps = [
      () => ({ type: 'create_room', seats: 2, bots: ['random', 'random'], bot_pause_ms: pause,
        setup: {} }),
      (answer) => ({ type: 'spectate', room: answer.room }),
      () => ({ type: 'start' }),
      () => ({ type: 'leave' }),
    ];
    const expected = ['room_created', 'spectating', 'started', 'left'];
    const send = (answer) => ws.send(JSON.stringify({ ...steps[id](answer), id: ++id }));
    ws.on('open', () => send());
    ws.on('message', (raw) => {
      const m = JSON.parse(raw.toString());
      if (m.id !== id) return;  // patches and snapshots
      if (m.type !== expected[id - 1]) return reject(new Error(JSON.stringify(m)));
      if (id === steps.length) { ws.close(); return resolve(); }
      send(m);
    });
    ws.on('error', reject);
  });
}

const start = Date.now();
let started = 0, errors = 0;
const samples = [];
let nextSample = start + sampleEvery;
console.log(`soak: ${wanted} bots-only rooms (random bots, pause ${pause} ms), ${seconds} s, ` +
  `server pid ${server.pid} on port ${port}`);
console.log('seconds\trss_mb\tanon_mb\trooms_held\tgames_finished\tgames_started');
while (Date.now() - start < duration) {
  const m = await metrics();
  // Games under way are those started and not finished: top them up to `wanted`.
  const playing = started - m.finished;
  const creators = [];
  for (let i = playing; i < wanted; ++i) {
    ++started;
    creators.push(oneRoom().catch((e) => { ++errors; console.error(`creator: ${e.message}`); }));
  }
  await Promise.all(creators);
  if (Date.now() >= nextSample) {
    const s = { t: Math.round((Date.now() - start) / 1000), ...rssMb(), ...(await metrics()) };
    samples.push(s);
    console.log(`${s.t}\t${s.rss.toFixed(1)}\t${s.anon.toFixed(1)}\t${s.rooms}\t${s.finished}\t` +
      `${started}`);
    nextSample += sampleEvery;
  }
  await new Promise((r) => setTimeout(r, 500));
}

server.kill('SIGTERM');
await new Promise((r) => server.on('exit', r));
rmSync(data, { recursive: true, force: true });
const first = samples.find((s) => s.t >= 60) ?? samples[0];  // minute 1
const peakRss = Math.max(...samples.filter((s) => s.t >= first.t).map((s) => s.rss));
const peakRooms = Math.max(...samples.map((s) => s.rooms));
const last = samples[samples.length - 1];
console.log(`summary: minute 1 ${first.rss.toFixed(1)} MB (${first.anon.toFixed(1)} anonymous), ` +
  `${first.rooms} rooms; end ${last.rss.toFixed(1)} MB (${last.anon.toFixed(1)} anonymous), ` +
  `${last.rooms} rooms; peak ${peakRss.toFixed(1)} MB, ${peakRooms} rooms; ${last.finished} ` +
  `games finished, ${errors} creator errors`);
process.exit(peakRss - first.rss <= 50 && peakRooms <= 2 * wanted && errors === 0 ? 0 : 1);
