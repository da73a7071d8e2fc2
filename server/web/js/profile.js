// A player's page, /#player=ID (docs/web.md "Accounts"): the name, each pool's rating with a
// sparkline of its history, its series and tournaments (tournaments.js), and the finished games,
// newest first, a page at a time, each with its seats, scores and result, a link to watch its
// replay (/#room=ID) and its record.
import { el, svg, clear } from './dom.js';
import { get, paged, errorText } from './api.js';
import { POOLS, poolName, ratingText, resultOf, dateText } from './players_text.js';
import { competitionsPart } from './tournaments.js';

const PAGE = 20;

// me: the page's own player id (or null), to say "you".
export function renderProfile(id, me) {
  const head = el('section', { class: 'card' }, el('p', { class: 'muted' }, 'Loading…'));
  const competitions = el('section', { class: 'card', id: 'profile-competitions' });
  const games = el('section', { class: 'card', id: 'profile-games' });
  const node = el('div', { class: 'page profile', id: 'profile', dataset: { player: id } }, head, competitions, games);
  const path = `/api/players/${encodeURIComponent(id)}`;
  get(path).then((p) => {
    document.title = `${p.player.name} — Carcassonne`;
    clear(head).append(...profileHead(p, id === me));
    competitionsPart(competitions, id);
    showGames(games, path, id, 0);
  }).catch((e) => clear(head).append(el('p', { role: 'alert' }, errorText(e)), el('a', { class: 'button-link', href: '#' }, 'Back to the lobby')));
  return node;
}

function profileHead(p, mine) {
  const who = p.player;
  const ratings = POOLS.map(([pool]) => p.ratings.find((r) => r.pool === pool)).filter(Boolean);
  return [
    el('h2', { id: 'profile-name' }, who.name,
      who.guest ? el('span', { class: 'muted' }, ' (guest)') : null,
      who.bot ? el('span', { class: 'muted' }, ' (bot)') : null,
      who.banned ? el('span', { class: 'muted' }, ' (banned)') : null,
      mine ? el('span', { class: 'muted' }, ' — you') : null),
    ratings.length
      ? el('table', { class: 'ratings', id: 'ratings' },
        el('thead', {}, el('tr', {}, ['Pool', 'Rating', 'Games', 'History'].map((h) => el('th', {}, h)))),
        el('tbody', {}, ratings.map((r) => el('tr', { dataset: { pool: r.pool } },
          el('td', {}, poolName(r.pool)), el('td', { class: 'num' }, ratingText(r)), el('td', { class: 'num games' }, String(r.games)),
          el('td', {}, sparkline(r.history))))))
      : el('p', { class: 'muted', id: 'ratings' }, 'No rated game yet.'),
    el('div', { class: 'form-row' }, el('a', { class: 'button-link', href: '#leaderboard=duel' }, 'Leaderboards'), el('a', { class: 'button-link', href: '#' }, 'Lobby')),
  ];
}

// The rating after each game, oldest to newest, as a line (no library: an inline SVG).
function sparkline(history) {
  const points = [...(history ?? [])].sort((a, b) => a.at_ms - b.at_ms).map((h) => h.rating);
  if (points.length < 2) return el('span', { class: 'muted' }, points.length ? String(Math.round(points[0])) : '');
  const w = 120, h = 28, lo = Math.min(...points), hi = Math.max(...points), span = hi - lo || 1;
  const xy = points.map((r, i) => `${((i / (points.length - 1)) * (w - 4) + 2).toFixed(1)},${(h - 2 - ((r - lo) / span) * (h - 4)).toFixed(1)}`);
  return svg('svg', { class: 'sparkline', width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: 'img',
    'aria-label': `rating from ${Math.round(points[0])} to ${Math.round(points.at(-1))} over ${points.length} games` },
  svg('polyline', { points: xy.join(' ') }));
}

async function showGames(node, path, id, offset) {
  clear(node).append(el('h3', {}, 'Games'), el('p', { class: 'muted' }, 'Loading…'));
  let page;
  try { page = await paged(`${path}/games`, offset, PAGE); } catch (e) {
    clear(node).append(el('h3', {}, 'Games'), el('p', { role: 'alert' }, errorText(e)));
    return;
  }
  const more = (to) => () => showGames(node, path, id, to);
  clear(node).append(...[
    el('h3', {}, 'Games', el('span', { class: 'muted', id: 'games-total' }, ` (${page.total})`)),
    page.games.length ? el('ol', { class: 'games' }, page.games.map((g) => gameItem(g, id))) : el('p', { class: 'muted' }, 'No finished game yet.'),
    pager(offset, PAGE, page.total, more)].filter(Boolean));
}

export function gameItem(g, id = null) {
  const mine = g.seats.findIndex((s) => s.player === id);
  return el('li', { class: 'game-item', dataset: { room: g.room } },
    el('div', { class: 'game-line' },
      mine >= 0 ? el('strong', { class: 'result' }, resultOf(g, mine)) : null,
      el('span', { class: 'muted' }, dateText(g.finished_ms)),
      el('span', { class: 'muted' }, g.rated && g.pool ? poolName(g.pool) : 'not rated')),
    el('div', { class: 'game-seats' }, g.seats.map((s, i) => el('span', { class: `game-seat${i === mine ? ' me' : ''}` },
      s.player ? el('a', { class: 'tap', href: `#player=${encodeURIComponent(s.player)}` }, s.name) : s.name,
      ` ${s.score}`, s.forfeited ? el('span', { class: 'muted' }, ' (left)') : null))),
    el('div', { class: 'game-links' },
      el('a', { class: 'button-link', href: `#room=${encodeURIComponent(g.room)}`, dataset: { action: 'replay' } }, 'Replay'),
      el('a', { class: 'button-link', href: g.record ?? `/api/rooms/${encodeURIComponent(g.room)}/record`, target: '_blank', rel: 'noopener', dataset: { action: 'record' } }, 'Record')));
}

// « Newer / Older » (or Previous / Next) over a list of `total` items shown `size` at a time.
export function pager(offset, size, total, go, [back, on] = ['Newer', 'Older']) {
  if (total <= size) return null;
  return el('div', { class: 'form-row pager' },
    el('button', { type: 'button', class: 'small', disabled: offset === 0, dataset: { action: 'page-back' }, onclick: go(Math.max(0, offset - size)) }, `« ${back}`),
    el('span', { class: 'muted' }, `${offset + 1}–${Math.min(total, offset + size)} of ${total}`),
    el('button', { type: 'button', class: 'small', disabled: offset + size >= total, dataset: { action: 'page-on' }, onclick: go(offset + size) }, `${on} »`));
}
