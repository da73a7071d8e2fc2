// The lobby: Play now (quickplay.js, with accounts), your name, the featured games (GET /api/featured: the games being played
// with the most spectators, with Watch and a link to the overlay), the public rooms (list_rooms, refreshed while the lobby is shown) with
// Join and Watch, or the games finished lately (finished_games.js), and the form that creates a room: seats, public or private, spectator delay,
// expansions and their rule options (docs/options.md).
import { matchForm, matchSummary } from './clocks.js';
import { el, clear } from './dom.js';
import { EXPANSIONS, OPTIONS, expansionName, optionWords } from './names.js';
import { botsFormPart, roomBotsNote } from './bots.js';
import { accountPanel } from './account_panel.js';
import { playNowCard } from './quickplay.js';
import { showFinished } from './finished_games.js';

const REFRESH_MS = 5000;
const MAX_ROWS = 40;

// ctx: {conn, account, quick (QuickPlay), name, setName(name), create(request, sit), join(roomId, name), watch(roomId)}
// With accounts (ctx.account.available) the player plays under the account's name, shown in the
// account panel; without, under the name typed here.
export function renderLobby(ctx) {
  const nameInput = el('input', { type: 'text', maxlength: 40, value: ctx.name, placeholder: 'your name', id: 'player-name', 'aria-label': 'your name',
    onchange: (e) => ctx.setName(e.target.value.trim()) });
  const withAccount = ctx.account?.available;
  const name = () => (withAccount && ctx.account.player?.name) || nameInput.value.trim() || 'Player';
  const rooms = roomsTable(ctx, name);
  const featured = featuredGames(ctx);
  const node = el('div', { class: 'page lobby' },
    withAccount && ctx.quick ? playNowCard(ctx.quick) : null,
    withAccount ? accountPanel(ctx.account)
      : el('section', { class: 'card wide' }, el('label', { for: 'player-name' }, 'Your name '), nameInput),
    featured.node,
    el('section', { class: 'card' }, el('h2', {}, 'Public rooms'), rooms.filter, rooms.note, rooms.table, rooms.finished),
    el('section', { class: 'card' }, el('h2', {}, 'Create a room'), createForm(ctx, nameInput, name, withAccount)));
  keepRefreshing(ctx.conn, node, () => { rooms.refresh(); featured.refresh(); });
  return node;
}

// ---- the featured games: shown while some public game is being played

const FEATURED = 5;

function featuredGames(ctx) {
  const list = el('ul', { class: 'featured-list' });
  const node = el('section', { class: 'card wide featured hidden', id: 'featured' }, el('h2', {}, 'Featured games'), list);
  async function refresh() {
    let rooms = [];
    try {
      const res = await fetch(`/api/featured?limit=${FEATURED}`, { headers: { Accept: 'application/json' } });
      if (res.ok) rooms = (await res.json()).rooms ?? [];
    } catch { /* kept as it was: the next refresh tries again */ return; }
    clear(list);
    node.classList.toggle('hidden', rooms.length === 0);
    for (const r of rooms) {
      list.append(el('li', { dataset: { room: r.id } },
        el('strong', {}, r.name), ' ',
        el('span', {}, r.players.join(' – ')), ' ',
        el('span', { class: 'muted featured-watching' }, `${r.spectators} watching`), ' ',
        el('button', { type: 'button', class: 'small', dataset: { action: 'watch' }, onclick: () => ctx.watch(r.id) }, 'Watch'), ' ',
        el('a', { href: `/overlay.html?room=${encodeURIComponent(r.id)}`, target: '_blank', rel: 'noopener', title: 'a transparent page for streaming software' }, 'Overlay')));
    }
  }
  return { node, refresh };
}

// Refreshes the room list now, every REFRESH_MS while `node` is shown, and on each reconnection.
function keepRefreshing(conn, node, refresh) {
  const refreshShown = () => { if (node.isConnected) refresh(); };
  const timer = setInterval(() => { if (!node.isConnected) clearInterval(timer); else refresh(); }, REFRESH_MS);
  conn.addEventListener('status', (e) => { if (e.detail.state === 'open') setTimeout(refreshShown, 100); });
  setTimeout(refreshShown, 0);
}

// ---- the public rooms

function roomsTable(ctx, name) {
  const body = el('tbody');
  const note = el('p', { class: 'muted' }, 'Loading…');
  const table = el('table', { class: 'rooms' }, el('thead', {}, el('tr', {}, ['Room', 'Expansions', 'Seats', 'State', ''].map((h) => el('th', {}, h)))), body);
  // Open and playing rooms, or the games finished lately (with their replays).
  const finished = el('div', { class: 'finished-list hidden' });
  let showing = 'rooms';
  const tab = (id, label) => el('button', { type: 'button', class: 'small', id: `filter-${id}`, 'aria-pressed': String(id === showing), dataset: { filter: id },
    onclick: () => { showing = id; sync(); refresh(); } }, label);
  const filter = el('div', { class: 'tabs room-filter', role: 'group', 'aria-label': 'which rooms' }, tab('rooms', 'Open and playing'), tab('finished', 'Finished'));
  function sync() {
    for (const b of filter.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.filter === showing));
    for (const n of [note, table]) n.classList.toggle('hidden', showing !== 'rooms');
    finished.classList.toggle('hidden', showing !== 'finished');
  }
  function show(rooms) {
    clear(body);
    note.textContent = rooms.length ? '' : 'No public room yet: create one.';
    const sorted = sortedRooms(rooms);
    if (sorted.length > MAX_ROWS) note.textContent = `The ${MAX_ROWS} most recent of ${sorted.length} rooms.`;
    for (const r of sorted.slice(0, MAX_ROWS)) body.append(roomRow(ctx, r, name));
  }
  async function refresh() {
    if (showing === 'finished') return showFinished(finished);
    try {
      const answer = await ctx.conn.request({ type: 'list_rooms' });
      if (answer.type === 'rooms') show(answer.rooms);
    } catch { note.textContent = 'Not connected: trying again…'; }
  }
  return { note, table, refresh, filter, finished };
}

// Rooms to join first, then games to watch, then finished ones; newest first in each.
function sortedRooms(rooms) {
  const order = { waiting: 0, playing: 1, finished: 2 };
  return rooms.map((r, i) => [r, i]).sort((a, b) => (order[a[0].state] - order[b[0].state]) || b[1] - a[1]).map(([r]) => r);
}

function roomRow(ctx, r, name) {
  const canJoin = r.state === 'waiting' && r.taken < r.seats;
  return el('tr', { dataset: { room: r.id } },
    el('td', {}, r.name),
    el('td', {}, r.expansions.length ? r.expansions.map(expansionName).join(', ') : 'base game',
      r.match ? el('div', { class: 'muted' }, matchSummary(r.match)) : null),
    el('td', {}, `${r.taken}/${r.seats}`, r.players.length ? el('div', { class: 'muted' }, r.players.join(', ')) : null, roomBotsNote(r)),
    el('td', {}, r.state, r.spectators ? el('div', { class: 'muted' }, `${r.spectators} watching`) : null),
    el('td', { class: 'room-actions' },
      canJoin ? el('button', { type: 'button', class: 'primary small', dataset: { action: 'join' }, onclick: () => ctx.join(r.id, name()) }, 'Join') : null, ' ',
      el('button', { type: 'button', class: 'small', dataset: { action: 'watch' }, onclick: () => ctx.watch(r.id) }, 'Watch')));
}

// ---- the create form

function createForm(ctx, nameInput, name, withAccount) {
  const roomName = el('input', { type: 'text', maxlength: 40, placeholder: 'room name (optional)', id: 'room-name', 'aria-label': 'room name' });
  const seats = el('select', { id: 'seats', 'aria-label': 'seats' }, [2, 3, 4, 5, 6].map((n) => el('option', { value: n, selected: n === 2 }, String(n))));
  const isPublic = el('input', { type: 'checkbox', id: 'public', checked: true });
  const delay = el('input', { type: 'number', min: 0, max: 20, value: 0, id: 'spectator-delay', style: 'width:4em' });
  const sit = el('input', { type: 'checkbox', id: 'sit', checked: true });
  const rated = el('input', { type: 'checkbox', id: 'rated', checked: true });
  const botsPart = botsFormPart();
  const expansionBoxes = EXPANSIONS.map(([id, label]) => expansionBox(id, label));
  const script = el('textarea', { class: 'script', id: 'scripted-setup', placeholder: '{"seed": "my-seed", "script": {"deck": ["BA/C", "BA/RFr"]}}' });
  const error = el('p', { class: 'muted', role: 'alert' });
  const match = matchForm();

  function request() {
    const setup = chosenSetup(expansionBoxes, script.value);
    const r = { type: 'create_room', seats: Number(seats.value), public: isPublic.checked, spectator_delay: Number(delay.value) || 0, setup };
    if (roomName.value.trim()) r.name = roomName.value.trim();
    if (match.value()) r.match = match.value();
    if (withAccount && !rated.checked) r.rated = false;
    return Object.assign(r, botsPart.fields(r.seats));
  }

  return el('form', { id: 'create-form', onsubmit: async (e) => {
    e.preventDefault();
    error.textContent = '';
    if (!withAccount) ctx.setName(nameInput.value.trim());
    let r;
    try { r = request(); } catch (x) { error.textContent = `The scripted setup is not JSON: ${x.message}`; return; }
    const message = await ctx.create(r, sit.checked && !botsPart.allBots(r.seats), name());
    if (message) error.textContent = message;
  } },
  el('div', { class: 'form-row' }, roomName),
  el('div', { class: 'form-row' }, el('label', {}, 'Seats', seats), el('label', {}, isPublic, 'listed in the lobby'),
    el('label', {}, 'Spectators see', delay, 'moves late'),
    withAccount ? el('label', { title: 'the game counts for the players’ ratings (not with a seed or a script)' }, rated, 'rated') : null),
  botsPart.node,
  match.node,
  el('h3', {}, 'Expansions'), expansionBoxes.map((e) => e.node),
  el('details', {}, el('summary', {}, 'Scripted setup (test servers started with --allow-scripted only)'), script),
  el('div', { class: 'form-row' }, el('label', {}, sit, 'take a seat myself'), el('button', { type: 'submit', class: 'primary', id: 'create' }, 'Create the room')),
  error);
}

// An expansion's check box, with its rule options shown while it is ticked.
function expansionBox(id, label) {
  const box = el('input', { type: 'checkbox', value: id, id: `exp-${id}` });
  const opts = el('div', { class: 'options hidden' }, OPTIONS.filter((o) => o.expansion === id).map((o) => {
    const select = el('select', { id: `opt-${o.id}`, dataset: { option: o.id } }, o.values.map((v, i) => el('option', { value: JSON.stringify(v) }, optionWords(o, i))));
    return [el('label', { for: `opt-${o.id}` }, o.label), select];
  }));
  box.addEventListener('change', () => opts.classList.toggle('hidden', !box.checked));
  return { id, box, opts, node: el('div', {}, el('label', {}, box, label), opts) };
}

// The setup of create_room: the ticked expansions, their options that differ from the default,
// and the scripted setup's JSON over them (throws when that is not JSON).
function chosenSetup(expansionBoxes, scriptText) {
  const expansions = expansionBoxes.filter((e) => e.box.checked).map((e) => e.id);
  const options = {};
  for (const e of expansionBoxes) {
    if (!e.box.checked) continue;
    for (const s of e.opts.querySelectorAll('select')) {
      const o = OPTIONS.find((x) => x.id === s.dataset.option);
      const v = JSON.parse(s.value);
      if (v !== o.values[0]) options[o.id] = v;  // defaults are left out
    }
  }
  const setup = { expansions, options };
  if (scriptText.trim()) Object.assign(setup, JSON.parse(scriptText));
  return setup;
}
