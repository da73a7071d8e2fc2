// The leaderboards, /#leaderboard=POOL (docs/web.md "Accounts"): a tab per pool, 50 players a
// page in the server's order (established ratings first, highest first, then provisional ones),
// each with rank, name (a link to the profile; a bot's marked), rating and games.
import { el, clear } from './dom.js';
import { paged, errorText } from './api.js';
import { POOLS, ratingText } from './players_text.js';
import { pager } from './profile.js';

const PAGE = 50;

export function renderLeaderboard(pool, me) {
  const body = el('div', { id: 'leaderboard-body' });
  const node = el('div', { class: 'page leaderboard', id: 'leaderboard', dataset: { pool } },
    el('section', { class: 'card' },
      el('h2', {}, 'Leaderboards'),
      el('nav', { class: 'tabs', 'aria-label': 'rating pools' }, POOLS.map(([id, name, about]) =>
        el('a', { class: `button-link tab${id === pool ? ' current' : ''}`, href: `#leaderboard=${id}`, title: about, dataset: { pool: id },
          'aria-current': id === pool ? 'page' : null }, name))),
      el('p', { class: 'muted' }, POOLS.find(([id]) => id === pool)?.[2] ?? ''),
      body,
      el('div', { class: 'form-row' }, el('a', { class: 'button-link', href: '#' }, 'Lobby'))));
  show(body, pool, 0, me);
  return node;
}

async function show(body, pool, offset, me) {
  let page;
  try { page = await paged(`/api/leaderboards/${encodeURIComponent(pool)}`, offset, PAGE); } catch (e) {
    clear(body).append(el('p', { role: 'alert' }, errorText(e)));
    return;
  }
  clear(body).append(...[
    page.players.length
      ? el('table', { class: 'board-table' },
        el('thead', {}, el('tr', {}, ['#', 'Player', 'Rating', 'Games'].map((h) => el('th', {}, h)))),
        el('tbody', {}, page.players.map((p) => el('tr', { class: p.player.id === me ? 'me' : null, dataset: { player: p.player.id } },
          el('td', { class: 'num' }, String(p.rank)),
          el('td', {}, el('a', { class: 'tap', href: `#player=${encodeURIComponent(p.player.id)}` }, p.player.name),
            p.player.bot ? el('span', { class: 'muted' }, ' (bot)') : null),
          el('td', { class: 'num' }, ratingText(p)),
          el('td', { class: 'num' }, String(p.games))))))
      : el('p', { class: 'muted' }, 'Nobody has played a rated game in this pool yet.'),
    pager(offset, PAGE, page.total, (to) => () => show(body, pool, to, me), ['Previous', 'Next'])].filter(Boolean));
}
