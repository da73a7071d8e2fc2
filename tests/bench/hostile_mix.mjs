// The hostile mix of docs/hosting.md "Under attack": flooders that reconnect at once from one
// address, slow readers that never read, and a client creating rooms as fast as it is allowed,
// each from its own loopback address (127.0.0.2-4, not exempt), for DURATION seconds. Run it
// next to `carcassonne loadtest` (from 127.0.0.1) to measure what it does to other rooms:
//   NODE_PATH=/usr/share/nodejs node tests/bench/hostile_mix.mjs PORT DURATION [FLOODERS]
// Prints what it sent and what the server did (JSON).
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const WebSocket = require('ws');

const port = Number(process.argv[2] ?? 8080);
const duration = Number(process.argv[3] ?? 20) * 1000;
const flooders = Number(process.argv[4] ?? 5);
const url = `ws://127.0.0.1:${port}/ws`;
const until = Date.now() + duration;
const stats = { flood_connections: 0, flood_refused: 0, flood_frames: 0, flood_closed_1008: 0,
                slow_dropped: 0, rooms_created: 0, rooms_refused: {}, };

function open(localAddress) {
  return new WebSocket(url, { localAddress, perMessageDeflate: false });
}

// A flooder: pings as fast as the socket takes them; when closed (or refused), again at once.
function flooder() {
  if (Date.now() > until) return;
  const ws = open('127.0.0.2');
  let timer = null;
  ws.on('open', () => {
    stats.flood_connections++;
    const blast = () => {
      if (ws.readyState !== WebSocket.OPEN) return;
      for (let i = 0; i < 200; i++) ws.send('{"type":"ping"}');
      stats.flood_frames += 200;
      timer = setImmediate(blast);
    };
    blast();
  });
  ws.on('unexpected-response', () => { stats.flood_refused++; });
  ws.on('close', (code) => {
    if (code === 1008) stats.flood_closed_1008++;
    clearImmediate(timer);
    setTimeout(flooder, 5);
  });
  ws.on('error', () => {});
}

// A slow reader: asks for the lobby's list within its rate and never reads an answer.
function slowReader(n) {
  const ws = open('127.0.0.3');
  ws.on('open', () => {
    ws._socket.pause();
    const ask = setInterval(() => {
      if (Date.now() > until || ws.readyState !== WebSocket.OPEN) return clearInterval(ask);
      ws.send('{"type":"list_rooms"}');
    }, 60);
  });
  ws.on('close', () => {
    stats.slow_dropped++;
    if (Date.now() < until) setTimeout(() => slowReader(n), 100);
  });
  ws.on('error', () => {});
}

// A room creator: public rooms as fast as it is allowed (within its connection's rate).
function creator() {
  const ws = open('127.0.0.4');
  ws.on('open', () => {
    const make = setInterval(() => {
      if (Date.now() > until || ws.readyState !== WebSocket.OPEN) return clearInterval(make);
      ws.send(JSON.stringify({ type: 'create_room', name: 'spam', seats: 6, setup: {} }));
    }, 60);
  });
  ws.on('message', (data) => {
    const m = JSON.parse(data);
    if (m.type === 'room_created') stats.rooms_created++;
    else if (m.type === 'error') stats.rooms_refused[m.code] = (stats.rooms_refused[m.code] ?? 0) + 1;
  });
  ws.on('close', () => { if (Date.now() < until) setTimeout(creator, 100); });
  ws.on('error', () => {});
}

for (let i = 0; i < flooders; i++) flooder();
for (let i = 0; i < 10; i++) slowReader(i);
creator();
setTimeout(() => { console.log(JSON.stringify(stats)); process.exit(0); }, duration + 500);
