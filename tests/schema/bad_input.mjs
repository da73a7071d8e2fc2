// The documented bad input (docs/protocol.md §2, §4, §9, §10) sent to a real server: for each
// frame, the schema must reject it exactly when the server refuses it for its shape (an `error`
// with one of SHAPE_ERRORS); frames refused for other reasons (not_in_room, not_your_turn, …)
// or accepted must be valid. Moves are sent by the seat to act in a started game, so that they
// reach the move parser. checkBadInput(url, wire) resolves with the list of disagreements.
import { createRequire } from 'node:module';
import { SHAPE_ERRORS } from './wire_schema.mjs';

const require = createRequire(import.meta.url);
const long = (n) => 'x'.repeat(n);

// [what, frame]: frames outside a room, then moves of the seat to act.
const lobbyCases = [
  ['unknown type', { type: 'frobnicate' }],
  ['no type', { room: 'r' }],
  ['type not a string', { type: 5 }],
  ['id an object', { type: 'ping', id: { a: 1 } }],
  ['id too long', { type: 'ping', id: long(65) }],
  ['id of 64 characters', { type: 'ping', id: long(64) }],
  ['moved not a boolean', { type: 'ping', moved: 'yes' }],
  ['hello without protocol', { type: 'hello' }],
  ['hello protocol a string', { type: 'hello', protocol: '1' }],
  ['hello protocol 0', { type: 'hello', protocol: 0 }],
  ['hello protocol 2', { type: 'hello', protocol: 2 }],
  ['hello client too long', { type: 'hello', protocol: 1, client: long(41) }],
  ['hello with an unknown member', { type: 'hello', protocol: 1, extra: [1] }],
  ['list_rooms limit 0', { type: 'list_rooms', limit: 0 }],
  ['list_rooms limit 101', { type: 'list_rooms', limit: 101 }],
  ['list_rooms offset -1', { type: 'list_rooms', offset: -1 }],
  ['list_rooms state open', { type: 'list_rooms', state: 'open' }],
  ['list_rooms 17 expansions', { type: 'list_rooms', expansions: Array(17).fill('gifts') }],
  ['create_room seats 7', { type: 'create_room', seats: 7 }],
  ['create_room seats 1', { type: 'create_room', seats: 1 }],
  ['create_room seats a string', { type: 'create_room', seats: '2' }],
  ['create_room public a string', { type: 'create_room', public: 'yes' }],
  ['create_room name too long', { type: 'create_room', name: long(41) }],
  ['create_room spectator_delay 21', { type: 'create_room', spectator_delay: 21 }],
  ['create_room an unknown bot level', { type: 'create_room', bots: ['genius'] }],
  ['create_room bot_pause_ms -1', { type: 'create_room', bot_pause_ms: -1 }],
  ['create_room takeover_after 3601', { type: 'create_room', takeover_after: 3601 }],
  ['join without room', { type: 'join', name: 'Ann' }],
  ['join room too long', { type: 'join', room: long(65), name: 'Ann' }],
  ['join name empty', { type: 'join', room: 'nowhere', name: '' }],
  ['join name too long', { type: 'join', room: 'nowhere', name: long(41) }],
  ['join seat 6', { type: 'join', room: 'nowhere', name: 'Ann', seat: 6 }],
  ['join seat a string', { type: 'join', room: 'nowhere', name: 'Ann', seat: '1' }],
  ['join an unknown room', { type: 'join', room: 'nowhere', name: 'Ann' }],
  ['spectate without room', { type: 'spectate' }],
  ['resume last_seq -1', { type: 'resume', room: 'nowhere', token: 'x', last_seq: -1 }],
  ['resume token too long', { type: 'resume', room: 'nowhere', token: long(129) }],
  ['replay move -1', { type: 'replay', room: 'nowhere', move: -1 }],
  ['chat without text', { type: 'chat' }],
  ['chat text too long', { type: 'chat', text: long(501) }],
  ['chat outside a room', { type: 'chat', text: 'hi' }],
  ['history from -1', { type: 'history', from: -1 }],
  ['add_bot without level', { type: 'add_bot' }],
  ['add_bot an unknown level', { type: 'add_bot', level: 'genius' }],
  ['remove_bot without seat', { type: 'remove_bot' }],
  ['undo_answer without accept', { type: 'undo_answer' }],
  ['undo_answer accept a string', { type: 'undo_answer', accept: 'yes' }],
  ['rematch accept a number', { type: 'rematch', accept: 1 }],
  ['authenticate session too long', { type: 'authenticate', session: long(129) }],
  ['move without move', { type: 'move' }],
  ['move outside a room', { type: 'move', move: { type: 'pass' } }],
];
const moveCases = [
  ['move not an object', { type: 'move', move: 'pass' }],
  ['move seq -1', { type: 'move', seq: -1, move: { type: 'pass' } }],
  ['move without type', { type: 'move', move: { x: 1, y: 0, rotation: 0 } }],
  ['an unknown move type', { type: 'move', move: { type: 'teleport' } }],
  ['place_tile x a string', { type: 'move', move: { type: 'place_tile', x: 'a', y: 0, rotation: 0 } }],
  ['place_tile without y', { type: 'move', move: { type: 'place_tile', x: 1, rotation: 0 } }],
  ['place_tile rotation 45', { type: 'move', move: { type: 'place_tile', x: 1, y: 0, rotation: 45 } }],
  ['place_tile x out of range', { type: 'move', move: { type: 'place_tile', x: 40000, y: 0, rotation: 0 } }],
  ['place_tile seat 9', { type: 'move', move: { seat: 9, type: 'place_tile', x: 1, y: 0, rotation: 0 } }],
  ['place_tile seat a string', { type: 'move', move: { seat: '0', type: 'place_tile', x: 1, y: 0, rotation: 0 } }],
  ['place_tile on a far square', { type: 'move', move: { type: 'place_tile', x: 40, y: 40, rotation: 0 } }],
  ['deploy without feature', { type: 'move', move: { type: 'deploy', x: 0, y: 0 } }],
  ['deploy an unknown figure', { type: 'move', move: { type: 'deploy', figure: 'dragon', x: 0, y: 0, feature: 'road0' } }],
  ['deploy protect a string', { type: 'move', move: { type: 'deploy', x: 0, y: 0, feature: 'road0', protect: 'yes' } }],
  ['flock choice eat', { type: 'move', move: { type: 'flock', choice: 'eat' } }],
  ['bunny path empty', { type: 'move', move: { type: 'bunny', path: [] } }],
  ['bunny path of 4', { type: 'move', move: { type: 'bunny', path: [[0, 1], [0, 2], [0, 3], [0, 4]] } }],
  ['bunny path entry not a pair', { type: 'move', move: { type: 'bunny', path: [[0]] } }],
  ['open_gift an unknown card', { type: 'move', move: { type: 'open_gift', card: 'joker' } }],
  ['choose_tile index 2', { type: 'move', move: { type: 'choose_tile', index: 2 } }],
  ['pass at the place_tile step', { type: 'move', move: { type: 'pass' } }],
];

function connect(WebSocket, url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames = [];
    const waiters = [];
    ws.on('message', (data) => {
      frames.push(JSON.parse(data.toString()));
      for (const w of waiters.splice(0)) w();
    });
    ws.on('open', () => resolve({
      ws,
      // The answer to the frame just sent: the frame with its id, or an error without one.
      async ask(frame, id) {
        ws.send(JSON.stringify(frame));
        for (;;) {
          const i = frames.findIndex((f) => (id !== undefined && f.id === id) || (f.type === 'error' && f.id === undefined));
          if (i >= 0) return frames.splice(0, i + 1).pop();
          await new Promise((r) => waiters.push(r));
        }
      },
    }));
    ws.on('error', reject);
  });
}

const pause = () => new Promise((r) => setTimeout(r, 70));  // under the server's message rate

export async function checkBadInput(url, wire) {
  let WebSocket;
  for (const name of ['ws', '/usr/share/nodejs/ws']) {
    try { WebSocket = require(name); break; } catch { /* next */ }
  }
  if (!WebSocket) return ['bad input: cannot load the "ws" package (apt-get install node-ws)'];
  const failures = [];
  let n = 0;
  async function send(conn, [what, frame]) {
    const id = 'id' in frame ? (typeof frame.id === 'object' || String(frame.id).length > 64 ? undefined : frame.id) : `b${++n}`;
    const sent = 'id' in frame || 'type' in frame === false ? frame : { ...frame, id };
    const refusal = wire.check('client', sent);
    const answer = await conn.ask(sent, id);
    await pause();
    const bad = wire.check('server', answer);
    if (bad) failures.push(`bad input '${what}': the answer: ${bad}`);
    // A move's `seat` is checked against the sender's seat before the move's shape: a seat out
    // of range or not an integer is wrong_seat there, a refusal the schema makes too.
    const shape = answer.type === 'error' && (SHAPE_ERRORS.has(answer.code) ||
      (answer.code === 'wrong_seat' && refusal !== null && refusal.includes(' /move/seat ')));
    if (shape !== (refusal !== null))
      failures.push(`bad input '${what}': schema ${refusal ?? 'accepts it'}; server ${JSON.stringify(answer)}`);
    return answer;
  }
  const ann = await connect(WebSocket, url);
  for (const c of lobbyCases) await send(ann, c);
  // A started game, Ann to place her tile.
  const created = await ann.ask({ type: 'create_room', id: 'c', seats: 2, setup: { seed: 'schema-bad-input' } }, 'c');
  const bob = await connect(WebSocket, url);
  await ann.ask({ type: 'join', id: 'j', room: created.room, name: 'Ann' }, 'j');
  await pause();
  await bob.ask({ type: 'join', id: 'j', room: created.room, name: 'Bob' }, 'j');
  await pause();
  const started = await ann.ask({ type: 'start', id: 's' }, 's');
  if (started.type !== 'started') failures.push(`bad input: the game did not start: ${JSON.stringify(started)}`);
  await pause();
  for (const c of moveCases) await send(ann, c);
  ann.ws.close();
  bob.ws.close();
  console.log(`bad input: ${lobbyCases.length + moveCases.length} frames sent`);
  return failures;
}
