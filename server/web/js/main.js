// The page's entry point: one connection to the server, the catalogue of tiles, the player
// signed in (account.js: before the connection opens, so that its upgrade carries the session
// cookie), and the screen for the address: the lobby at "/", a room at "/#room=ID" (waiting
// room, then the game), a player's profile at "/#player=ID", the leaderboards at
// "/#leaderboard=POOL", the tournaments at "/#tournaments", one at "/#tournament=ID", a series
// at "/#series=ID", the player's games with vacation and notification settings at "/#games" (the
// page opens there when the list is not empty); "/#signin-error=CODE" is a failed OpenID Connect
// sign-in, told in a notice; "/?room=ID" (a notification's link) is "/#room=ID".
// A room is entered with the seat token kept for it (resume), or signed in without a token for
// a seat the server arranged (match_found: quick play, series, tournaments), or else as a
// spectator.
import { el, clear } from './dom.js';
import { Connection } from './protocol.js';
import { loadCatalogue } from './tiles_svg.js';
import { loadVocabulary } from './names.js';
import { renderLobby } from './lobby.js';
import { renderWaitingRoom } from './room.js';
import { GameScreen } from './game.js';
import * as store from './store.js';
import { installFairness, adoptRematch, adoptNonce } from './fairness.js';
import { clearTurnSignal } from './turn_signal.js';
import { Account, signInErrorText } from './account.js';
import { renderProfile } from './profile.js';
import { renderLeaderboard } from './leaderboard.js';
import { QuickPlay, arrangedOf, arrangedText } from './quickplay.js';
import { renderTournaments, renderTournament, renderSeries } from './tournaments.js';
import { renderMyGames, fetchMyGames } from './my_games.js';
import { registerServiceWorker } from './notify_settings.js';

const app = document.getElementById('app');
const conn = new Connection(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
const account = new Account(conn);
const quick = new QuickPlay(conn);
const createdHere = new Set();  // rooms this page created: their creator, seated or not
let screen = { kind: 'none' };

// ---- small pieces of the header
function notice(text, kind = 'info') {
  const n = el('div', { class: `notice ${kind}`, role: 'alert' }, text);
  document.getElementById('notices').append(n);
  setTimeout(() => n.remove(), kind === 'error' ? 8000 : 4000);
}
conn.addEventListener('notice', (e) => notice(e.detail.text, e.detail.kind));
conn.addEventListener('status', (e) => {
  const c = document.getElementById('conn');
  c.className = `conn ${e.detail.state}`;
  c.textContent = { connecting: 'connecting…', open: 'connected', closed: 'offline: reconnecting…' }[e.detail.state];
});
document.getElementById('to-lobby').addEventListener('click', () => { location.hash = ''; });

const fromHash = (key) => {
  const m = new RegExp(`(?:^#|&)${key}=([^&]+)`).exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
};
const roomFromHash = () => fromHash('room');
// The name a seat is taken under: the account's, else the one typed.
const playingName = (typed) => (account.player ? account.player.name : typed);

function show(kind, node, extra = {}) {
  // A screen drawn again keeps the field being typed in (a patch may come mid-word).
  const focused = document.activeElement?.id ? document.activeElement : null;
  const [id, start, end] = focused ? [focused.id, focused.selectionStart, focused.selectionEnd] : [];
  screen = { kind, ...extra };
  // The game fills the window (the board pans, the panel scrolls); other screens scroll.
  document.body.classList.toggle('in-game', kind === 'game');
  if (kind !== 'game') clearTurnSignal();
  // The fairness line (fairness.js) goes with the game into its panel (on a phone, its sheet):
  // under a game that fills the window it would be out of reach. (Found before the old screen,
  // which may hold it, leaves the page.)
  const fair = document.getElementById('fairness');
  clear(app).append(node);
  if (fair) (node.querySelector('.fair-slot') ?? document.body).append(fair);
  const again = id && document.getElementById(id);
  if (again && again !== focused) {
    again.focus();
    try { again.setSelectionRange(start, end); } catch { /* not a text field */ }
  }
}

function message(text, withLobbyLink = true) {
  show('message', el('div', { class: 'page' }, el('section', { class: 'card' }, el('p', {}, text),
    withLobbyLink ? el('p', {}, el('a', { href: '#' }, 'Back to the lobby')) : null)));
}

// ---- the lobby
function showLobby() {
  document.title = 'Carcassonne';
  document.getElementById('room-title').textContent = '';
  document.getElementById('to-lobby').classList.add('hidden');
  show('lobby', renderLobby({
    conn,
    account,
    quick,
    name: store.playerName(),
    setName: (n) => n && store.setPlayerName(n),
    async create(request, sit, name) {
      const answer = await conn.request(request).catch((e) => ({ type: 'error', message: e.message }));
      if (answer.type !== 'room_created') return answer.message;
      createdHere.add(answer.room);
      if (sit) {
        const joined = await conn.join(answer.room, playingName(name));
        if (joined.type !== 'joined') return joined.message;
        store.setSeat(answer.room, { token: joined.token, creator: true });
      }
      location.hash = `#room=${encodeURIComponent(answer.room)}`;
      return null;
    },
    async join(room, name) {
      if (!account.player) store.setPlayerName(name);
      const joined = await conn.join(room, playingName(name));
      if (joined.type !== 'joined') return notice(joined.message, 'error');
      store.setSeat(room, { token: joined.token, creator: false });
      location.hash = `#room=${encodeURIComponent(room)}`;
    },
    watch(room) { location.hash = `#room=${encodeURIComponent(room)}`; },
  }));
}

// ---- a profile, the leaderboards
function showPage(kind, node) {
  document.title = 'Carcassonne';
  document.getElementById('room-title').textContent = '';
  document.getElementById('to-lobby').classList.remove('hidden');
  show(kind, node);
}

// ---- a room
async function route() {
  const room = roomFromHash();
  if (!room) {
    if (conn.room) {
      // Leaving a room before its start gives the seat up (the protocol voids the token).
      if (conn.mode === 'seat' && conn.view?.room?.state === 'waiting') store.forgetSeat(conn.room);
      await conn.leave();
    }
    const player = fromHash('player'), pool = fromHash('leaderboard'), tournament = fromHash('tournament'), series = fromHash('series');
    const me = account.player?.id ?? null;
    if (player) showPage('profile', renderProfile(player, me));
    else if (pool) showPage('leaderboard', renderLeaderboard(pool, me));
    else if (tournament) showPage('tournament', renderTournament(tournament, { conn, account, playSeat }));
    else if (series) showPage('series', renderSeries(series));
    else if (location.hash === '#tournaments') showPage('tournaments', renderTournaments());
    else if (location.hash === '#games') showPage('games', renderMyGames({ open: openMyGame }));
    else showLobby();
    return;
  }
  document.getElementById('to-lobby').classList.remove('hidden');
  if (conn.room === room && conn.inRoom) { render(); return; }
  if (conn.room && conn.room !== room) await conn.leave();
  message('Entering the room…', false);
  // A seat the server arranged has no token: the signed-in socket resumes it (§12).
  const seat = store.seatOf(room);
  const answer = await conn.enterRoom(room, seat?.token ?? null, !!seat?.token || (!!seat?.arranged && account.signedIn)).catch(() => null);
  if (answer === null && !conn.welcomed) message('Connecting to the server…', false);
}

function render(events = []) {
  const view = conn.view;
  if (!view || !roomFromHash()) return;
  // For tests and the curious: the view's sequence number and state, on the page.
  app.dataset.seq = conn.seq;
  app.dataset.state = view.room.state;
  const part = arrangedText(store.seatOf(view.room.id)?.arranged);
  document.getElementById('room-title').textContent = part ? `${part} — ${view.room.name}` : view.room.name;
  if (view.game) {
    if (screen.kind !== 'game' || screen.room !== view.room.id) {
      const game = new GameScreen(conn);
      show('game', game.node, { room: view.room.id, game });
    }
    screen.game.update(view, events);
    return;
  }
  const typed = document.getElementById('join-name')?.value;
  show('room', renderWaitingRoom(view.room, {
    mode: conn.mode,
    mySeat: conn.mode === 'seat' ? conn.seat : null,
    creator: createdHere.has(view.room.id) || !!store.seatOf(view.room.id)?.creator,
    name: account.player ? account.player.name : typed ?? store.playerName(),
    signedIn: !!account.player,
    request: (m) => conn.request(m),  // bots.js: add_bot, remove_bot, start
    notice,
    async join(name, seat) {
      name = name.trim() || 'Player';
      if (!account.player) store.setPlayerName(name);
      const joined = await conn.join(view.room.id, playingName(name), seat);
      if (joined.type !== 'joined') return notice(joined.message, 'error');
      store.setSeat(view.room.id, { token: joined.token, creator: createdHere.has(view.room.id) });
    },
    async start() {
      const answer = await conn.request({ type: 'start' }).catch((e) => ({ type: 'error', message: e.message }));
      if (answer.type === 'error') notice(answer.message, 'error');
    },
    async leave() {
      store.forgetSeat(view.room.id);
      await conn.leave();
      await conn.enterRoom(view.room.id);  // and watch
    },
  }));
}

conn.addEventListener('view', (e) => render(e.detail.events));
conn.addEventListener('chat', (e) => { if (screen.kind === 'game') screen.game.addChat(e.detail); else notice(`${e.detail.name}: ${e.detail.text}`); });
conn.addEventListener('membership', (e) => {
  const d = e.detail;
  if (d.type === 'lost_seat') { store.forgetSeat(d.room); notice('Your seat in this room is gone: you are watching.'); }
  if (d.type === 'refused' && d.room === roomFromHash()) {
    if (d.code === 'no_such_room') store.forgetSeat(d.room);
    message(d.code === 'no_such_room' ? 'This room does not exist (any more).' : d.message);
  }
  if (d.type === 'replaced') message('Your seat was taken over by another window or device. Reload this page to take it back here.');
});

// A rematch room was made with our seat in it: keep its token and go there (route resumes).
// Also when this seat was away then: it learns of it on resuming the finished room.
conn.addEventListener('rematch', (e) => {
  if (conn.view?.room?.id) adoptRematch(conn.view.room.id, e.detail.room);
  store.setSeat(e.detail.room, { token: e.detail.token, creator: false });
  location.hash = `#room=${encodeURIComponent(e.detail.room)}`;
});

// ---- a game the server arranged (docs/protocol.md §24): its seat is resumed without a token.
// From the lobby or any other page the page goes there at once; from a game it offers "Next
// game" in a banner, and goes by itself after NEXT_GAME_S unless this seat is still playing
// the game shown.
const NEXT_GAME_S = 15;
let banner = null;
function dropBanner() { if (banner) { clearTimeout(banner.timer); banner.node.remove(); banner = null; } }
function playSeat(room, arranged = {}) {
  dropBanner();
  store.setSeat(room, { token: null, creator: false, arranged });
  location.hash = `#room=${encodeURIComponent(room)}`;
}
// A game of "My games": its seat by the token kept here, else resumed signed in (§12).
function openMyGame(room) {
  if (!store.seatOf(room)?.token) store.setSeat(room, { token: null, creator: false, arranged: {} });
  location.hash = `#room=${encodeURIComponent(room)}`;
}
conn.addEventListener('match', (e) => {
  const m = e.detail;
  const nonce = quick.stop();  // a match of this page's search: its seat has the seek's nonce
  if (nonce && !m.series && !m.tournament) adoptNonce(m.room, nonce);  // a series' games take no seek nonce
  const arranged = arrangedOf(m);
  if (roomFromHash() === m.room) return;
  const game = screen.kind === 'game' ? conn.view?.game : null;
  if (!game) { playSeat(m.room, arranged); return; }
  dropBanner();
  store.setSeat(m.room, { token: null, creator: false, arranged });
  const playing = conn.mode === 'seat' && game.status !== 'finished';
  const what = arrangedText(arranged) || 'A new game';
  const node = el('div', { class: 'match-banner', id: 'match-banner', role: 'alert', dataset: { room: m.room } },
    el('span', {}, `${what} is ready`, playing ? '' : ` — going there in ${NEXT_GAME_S} s`),
    el('button', { type: 'button', class: 'primary', id: 'next-game', onclick: () => playSeat(m.room, arranged) }, m.series ? 'Next game' : 'Go to the game'));
  document.body.append(node);
  banner = { node, timer: playing ? null : setTimeout(() => playSeat(m.room, arranged), NEXT_GAME_S * 1000) };
});
window.addEventListener('hashchange', () => { if (banner && roomFromHash() === banner.node.dataset.room) dropBanner(); route(); });
// A name claimed (or another sign-in) shows at once where the player is named.
account.addEventListener('change', () => { if (screen.kind === 'room') render(); });
// For the browser test and the curious: the connection (its view, seq, socket).
window.carcassonne = { conn, account, quick };
installFairness(conn);

try {
  await Promise.all([loadCatalogue(), loadVocabulary()]);
} catch (e) {
  message(`The tile catalogue or the options could not be loaded (${e.message}). Reload the page.`, false);
  throw e;
}
// A sign-in with the OpenID Connect provider that failed comes back as "/#signin-error=CODE".
const signInError = fromHash('signin-error');
if (signInError) {
  history.replaceState(null, '', location.pathname + location.search);
  notice(signInErrorText(signInError), 'error');
}
// A notification's link: "/?room=ID".
const linked = new URLSearchParams(location.search).get('room');
if (linked) history.replaceState(null, '', `/#room=${encodeURIComponent(linked)}`);
await account.start();
conn.connect();
registerServiceWorker();
// Signed in with games to play: the page opens on them.
if (!location.hash && account.signedIn && (await fetchMyGames())?.length) history.replaceState(null, '', '/#games');
route();
