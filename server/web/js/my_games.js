// My games (docs/web.md "My games"): every game the signed-in player sits in, from
// GET /api/me/games (docs/protocol.md §23), the games waiting for them first: whose turn, the time
// left on the clock, the seats on vacation. The page opens on this list when it is not empty;
// the vacation and notification settings come with it (vacation.js, notify_settings.js).
import { get, errorText } from './api.js';
import { el, clear } from './dom.js';
import { vacationCard } from './vacation.js';
import { notifySettingsCard } from './notify_settings.js';

// The player's games, or null when this server cannot list them (no such route, no accounts).
export async function fetchMyGames() {
  try {
    return (await get('/api/me/games')).games ?? [];
  } catch {
    return null;
  }
}

// "2 d 4 h", "3 h 12 min", "5 min": the time left until `deadline`.
export function timeLeftText(deadline, now = Date.now()) {
  if (deadline === null || deadline === undefined) return '—';
  const s = Math.max(0, Math.floor((deadline - now) / 1000));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return `${m} min`;
}

function gameRow(g, open) {
  const seatName = (i) => g.seats?.[i]?.name ?? `seat ${i + 1}`;
  const others = (g.seats ?? []).map((s, i) => (i === g.seat ? null : s.name)).filter(Boolean).join(', ');
  const vacation = g.vacation ?? [];
  const turn = g.state === 'finished' ? 'finished'
    : g.state === 'waiting' ? 'not started'
      : g.to_act ? 'your turn'
        : g.acting !== null && g.acting !== undefined ? `${seatName(g.acting)}'s turn` : '—';
  const held = vacation.includes(g.acting);
  return el('tr', { class: g.to_act ? 'to-act' : '', dataset: { room: g.room } },
    el('td', {}, el('a', { href: `#room=${encodeURIComponent(g.room)}`, onclick: (e) => { e.preventDefault(); open(g.room); } }, g.name || g.room)),
    el('td', {}, others || '—'),
    el('td', { class: 'turn' }, turn),
    el('td', { class: 'left' }, g.state === 'playing' ? (held ? 'held (vacation)' : timeLeftText(g.deadline_ms)) : '—'),
    el('td', { class: 'vacation' }, vacation.length ? vacation.map(seatName).join(', ') : ''));
}

export function myGamesCard(open) {
  const body = el('div', { id: 'games-in-play-body' }, el('p', { class: 'muted' }, 'Loading…'));
  const node = el('section', { class: 'card wide', id: 'games-in-play' }, el('h2', {}, 'Games in play'), body);
  fetchMyGames().then((games) => {
    clear(body);
    if (games === null) return body.append(el('p', { class: 'muted' }, 'This server does not list your games.'));
    if (!games.length) return body.append(el('p', { class: 'muted' }, 'You sit in no game now.'));
    body.append(el('table', { class: 'rooms my-games' },
      el('thead', {}, el('tr', {}, ['Game', 'Opponents', 'Turn', 'Time left', 'On vacation'].map((h) => el('th', {}, h)))),
      el('tbody', {}, games.map((g) => gameRow(g, open)))));
  }).catch((e) => clear(body).append(el('p', { class: 'error' }, errorText(e))));
  return node;
}

// The page at "/#games": the list, the vacation, the notification settings.
export function renderMyGames({ open }) {
  return el('div', { class: 'page my-games-page' }, myGamesCard(open), vacationCard(), notifySettingsCard());
}
