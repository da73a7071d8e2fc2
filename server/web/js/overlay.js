// The overlay for streaming software (an OBS browser source): /overlay.html?room=ID, with
// `layout` full (the default: scores and clocks, the last move, the board), scores (the scores
// and clocks, the last move) or board (the board alone), and `scale` (0.25–4, the size of its
// text). A transparent page fed by the room's event stream (GET /api/rooms/ID/events,
// docs/protocol.md "Streams"): a snapshot, then patches, exactly what a spectator sees, so the
// spectator delay applies. It draws with the page's own modules (the board, the score strip,
// the events in words) and sends nothing. EventSource reconnects by itself, and a new
// connection starts with a new snapshot.
import { el, clear } from './dom.js';
import { Board } from './board.js';
import { renderStrip } from './strip.js';
import { clockText } from './clocks.js';
import { describeEvents } from './events_text.js';
import { loadCatalogue, tileType } from './tiles_svg.js';
import { loadVocabulary, tileWords } from './names.js';
import { applyPatch } from './client/patch.js';

const params = new URLSearchParams(location.search);
const room = params.get('room') ?? '';
const layout = ['full', 'scores', 'board'].includes(params.get('layout')) ? params.get('layout') : 'full';
const scale = Math.min(4, Math.max(0.25, Number(params.get('scale')) || 1));
const root = document.getElementById('overlay');
document.body.classList.add(`layout-${layout}`);
document.documentElement.style.setProperty('--overlay-scale', String(scale));

let view = null;
let lastMove = '';       // the last move in words
let clockRead = 0;       // when the clock values shown were read (performance.now)
const board = layout === 'board' || layout === 'full' ? new Board({ whole: true }) : null;
const bar = el('div', { class: 'overlay-bar' });
const last = el('div', { class: 'overlay-last', dataset: { role: 'last-move' } });
const status = el('div', { class: 'overlay-status' });
root.append(status);
if (layout !== 'board') root.append(bar, last);
if (board) root.append(board.node);

const nameOf = (seat) => view?.game?.players?.[seat]?.name ?? view?.room?.seats?.[seat]?.name ?? `seat ${seat}`;

function say(text) {
  status.textContent = text;
  status.classList.toggle('hidden', !text);
}

// The last move: the words of the latest events; with a spectator delay (events withheld while
// the game runs), the tile placed last.
function noteMove(before, after, events) {
  // The move and what it scored, not the next turn's start and draw.
  const move = (events ?? []).filter((e) => e.type !== 'turn_started' && e.type !== 'tile_drawn');
  const lines = describeEvents(move, nameOf);
  if (lines.length) { lastMove = lines.map((l) => l.text).join(' '); return; }
  const b0 = before?.game?.board?.length ?? 0, tiles = after?.game?.board ?? [];
  if (tiles.length > b0 && b0 > 0) lastMove = `Last tile: ${tileWords(tileType(tiles[tiles.length - 1].tile))}`;
}

function render() {
  if (!view) return;
  const game = view.game;
  document.title = `${view.room.name ?? room} — overlay`;
  if (!game) {
    say(`${view.room.name ?? room}: waiting for the game to start`);
    clear(bar);
    last.classList.add('hidden');
    return;
  }
  say(game.status === 'finished' ? 'Final scores' : '');
  clear(bar).append(renderStrip(view, { nameOf }));
  last.textContent = lastMove;
  last.classList.toggle('hidden', !lastMove);
  clockRead = performance.now();
  if (board) {
    board.render(game, {});  // fitted whole (and again when the page is resized)
  }
}

// The running clock counts down between frames (the strip's data-remaining, as of clockRead).
setInterval(() => {
  for (const node of root.querySelectorAll('.strip-seat[data-running="true"]')) {
    const left = Number(node.dataset.remaining) - (performance.now() - clockRead);
    const time = node.querySelector('.time');
    if (time) time.textContent = clockText(left);
    node.classList.toggle('low', left < 10000);
  }
}, 250);

async function start() {
  if (!/^[0-9a-z]{1,64}$/.test(room)) return say('Add ?room=ID to the address (the room to show).');
  say('connecting…');
  await Promise.all([loadCatalogue(), loadVocabulary()]);
  const source = new EventSource(`/api/rooms/${room}/events`);
  source.addEventListener('snapshot', (e) => {
    view = JSON.parse(e.data).view;
    render();
  });
  source.addEventListener('patch', (e) => {
    if (!view) return;
    const m = JSON.parse(e.data);
    const before = view;
    view = applyPatch(view, m.patch);
    noteMove(before, view, m.events);
    render();
  });
  source.addEventListener('goodbye', () => say('the server is restarting: reconnecting…'));
  // The stream's own `error` event (the room stopped here: room_moved) carries data; the
  // connection's failures do not.
  source.addEventListener('error', (e) => {
    if (e.data) say(JSON.parse(e.data).code === 'room_moved' ? 'the game moved to another server: reconnecting…' : 'reconnecting…');
    else if (source.readyState !== EventSource.OPEN) say('reconnecting…');
  });
}

start();
