// One hostile address (127.0.0.2 by default, not exempt): FLOODERS connections sending `ping`s as
// fast as their sockets take them and reconnecting at once when closed or refused, and one more
// sending binary frames the same way, for DURATION seconds. Run it beside a quiet room played by
// `carcassonne loadtest` from 127.0.0.1 to see what one address's flood does to everyone else
// (docs/hosting.md "Under attack"):
//   NODE_PATH=/usr/share/nodejs node tests/bench/address_flood.mjs PORT DURATION [FLOODERS] [ADDRESS]
// Prints what it offered and what the server did with it (JSON).
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const WebSocket = require('ws');

const port = Number(process.argv[2] ?? 8080);
const duration = Number(process.argv[3] ?? 20) * 1000;
const flooders = Number(process.argv[4] ?? 4);
const address = process.argv[5] ?? '127.0.0.2';
const url = `ws://127.0.0.1:${port}/ws`;
const until = Date.now() + duration;
const stats = { connections: 0, refused: 0, frames: 0, binary_frames: 0, closed: {} };

function flood(binary) {
  if (Date.now() > until) return;
  const ws = new WebSocket(url, { localAddress: address, perMessageDeflate: false });
  let timer = null;
  const payload = binary ? Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]) : '{"type":"ping"}';
  ws.on('open', () => {
    stats.connections++;
    const blast = () => {
      if (ws.readyState !== WebSocket.OPEN) return;
      for (let i = 0; i < 200; i++) ws.send(payload, { binary });
      if (binary) stats.binary_frames += 200;
      else stats.frames += 200;
      timer = setImmediate(blast);
    };
    blast();
  });
  let again = false;  // once per connection, whichever way it ends
  const reconnect = () => {
    if (again) return;
    again = true;
    clearImmediate(timer);
    setImmediate(() => flood(binary));
  };
  ws.on('unexpected-response', (req) => {
    stats.refused++;
    req.destroy();
    reconnect();
  });
  ws.on('close', (code) => {
    stats.closed[code] = (stats.closed[code] ?? 0) + 1;
    reconnect();
  });
  ws.on('error', reconnect);
}

for (let i = 0; i < flooders; i++) flood(false);
flood(true);
setTimeout(() => {
  const seconds = duration / 1000;
  stats.offered_per_second = Math.round((stats.frames + stats.binary_frames) / seconds);
  console.log(JSON.stringify(stats));
  process.exit(0);
}, duration + 500);
