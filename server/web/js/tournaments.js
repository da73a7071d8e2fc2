// The tournaments (docs/web.md "Tournaments", docs/protocol.md §24): the list at /#tournaments,
// a tournament at /#tournament=ID (standings, rounds with their tables, results and each game's
// replay and record; Register, Withdraw, Check in for the signed-in player, Start for its
// director), refreshed while it is open or running; a series at /#series=ID; and the short list
// of a player's series and tournaments that the profile shows.
import { el, clear } from './dom.js';
import { get, paged, errorText } from './api.js';
import { dateText } from './players_text.js';
import { pager } from './profile.js';

const PAGE = 20;
const REFRESH_MS = 3000;
const FORMATS = { swiss: 'Swiss', knockout: 'knockout', swiss_knockout: 'Swiss, then knockout' };
const PHASES = { registration: 'registration open', running: 'running', finished: 'finished', cancelled: 'cancelled' };

const formatText = (t) => [FORMATS[t.format] ?? t.format, t.table_size > 2 ? `tables of ${t.table_size}` : null,
  t.best_of > 1 ? `best of ${t.best_of}` : null, t.format !== 'knockout' && t.rounds ? `${t.rounds} round${t.rounds === 1 ? '' : 's'}` : null].filter(Boolean).join(', ');
// Points as tournaments write them: 2½; quarters (tables of 3) as decimals.
function pointsText(p) {
  if (Number.isInteger(p)) return String(p);
  if (Number.isInteger(p * 2)) return `${Math.floor(p) || ''}½`;
  return String(Math.round(p * 100) / 100);
}
const roomLink = (room) => `#room=${encodeURIComponent(room)}`;
const recordLink = (room) => `/api/rooms/${encodeURIComponent(room)}/record`;

// ---- the list

export function renderTournaments() {
  const body = el('div', { id: 'tournaments-body' });
  const node = el('div', { class: 'page', id: 'tournaments' },
    el('section', { class: 'card' }, el('h2', {}, 'Tournaments'), body,
      el('div', { class: 'form-row' }, el('a', { class: 'button-link', href: '#' }, 'Lobby'))));
  showList(body, 0);
  return node;
}

async function showList(body, offset) {
  let page;
  try { page = await paged('/api/tournaments', offset, PAGE); } catch (e) {
    clear(body).append(el('p', { role: 'alert' }, errorText(e)));
    return;
  }
  const list = page.tournaments;
  clear(body).append(...[
    list.length
      ? el('table', { class: 'board-table' },
        el('thead', {}, el('tr', {}, ['Tournament', 'Format', 'Phase', 'Players', 'Start'].map((h) => el('th', {}, h)))),
        el('tbody', {}, list.map((t) => el('tr', { dataset: { tournament: t.id } },
          el('td', {}, el('a', { class: 'tap', href: `#tournament=${encodeURIComponent(t.id)}` }, t.name ?? t.id)),
          el('td', {}, formatText(t)),
          el('td', {}, PHASES[t.phase] ?? t.phase ?? ''),
          el('td', { class: 'num' }, String(t.players ?? 0)),
          el('td', {}, t.starts_ms ? dateText(t.starts_ms) : '')))))
      : el('p', { class: 'muted' }, 'No tournament yet.'),
    // The server gives no total: a full page may have another after it.
    pager(offset, PAGE, list.length === PAGE ? offset + PAGE + 1 : offset + list.length, (to) => () => showList(body, to), ['Newer', 'Older'])].filter(Boolean));
}

// ---- one tournament

// ctx: {conn, account, playSeat(room, arranged)}: the actions go over the WebSocket as the
// signed-in player; playSeat takes the player's seat at a table of the round under way.
export function renderTournament(id, ctx) {
  const head = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
  const actions = el('div', { class: 'form-row', id: 'tournament-actions' });
  const error = el('p', { class: 'error-text', role: 'alert', id: 'tournament-error' });
  const content = el('div', { id: 'tournament-body' });
  const node = el('div', { class: 'page', id: 'tournament', dataset: { tournament: id } },
    el('section', { class: 'card' }, head, actions, error, content,
      el('div', { class: 'form-row' }, el('a', { class: 'button-link', href: '#tournaments' }, 'Tournaments'), el('a', { class: 'button-link', href: '#' }, 'Lobby'))));
  let timer = null;
  const draw = (t) => {
    if (node.dataset.phase !== t.phase) error.textContent = '';  // a refusal of another phase
    node.dataset.phase = t.phase;
    document.title = `${t.settings.name} — Carcassonne`;
    clear(head).append(...tournamentHead(t));
    clear(actions).append(...actionButtons(t, ctx, error, draw));
    clear(content).append(...tournamentBody(t, ctx));
  };
  async function load() {
    try {
      const answer = await get(`/api/tournaments/${encodeURIComponent(id)}`);
      draw(answer.tournament);
      if (answer.tournament.phase === 'finished' || answer.tournament.phase === 'cancelled') clearInterval(timer);
    } catch (e) {
      clear(head).append(el('p', { role: 'alert' }, errorText(e)));
      if (e.status === 404) clearInterval(timer);
    }
  }
  // Refreshed while shown (the page has left it when it is no longer in the document).
  timer = setInterval(() => { if (node.isConnected) load(); else clearInterval(timer); }, REFRESH_MS);
  load();
  return node;
}

function tournamentHead(t) {
  const s = t.settings;
  const champion = t.champion ? t.participants.find((p) => p.id === t.champion)?.name ?? t.champion : null;
  return [
    el('h2', { id: 'tournament-name' }, s.name),
    el('p', { class: 'muted', id: 'tournament-summary' }, [formatText(s), PHASES[t.phase] ?? t.phase, t.paused ? 'paused' : null,
      `${t.participants.filter((p) => !p.removed).length} players`, `${t.phase === 'registration' ? 'starts' : 'started'} ${dateText(s.starts_ms)}`,
      s.rated ? 'rated' : 'not rated'].filter(Boolean).join(' · ')),
    champion ? el('p', { id: 'champion' }, 'Champion: ', el('strong', {}, champion)) : null,
  ].filter(Boolean);
}

// Register, Withdraw, Check in (and Start for the director), as the tournament's phase and the
// player's entry allow; a refusal is shown in the server's words.
function actionButtons(t, ctx, error, draw) {
  const me = ctx.account.player?.id;
  if (!me) return [];
  const entry = t.participants.find((p) => p.id === me && !p.removed);
  const act = (action) => async (e) => {
    error.textContent = '';
    e.target.disabled = true;
    const answer = await ctx.conn.signedIn().then(() => ctx.conn.request({ type: 'tournament', tournament: t.id, action }))
      .catch((x) => ({ type: 'error', message: `Not connected (${x.message}): try again.` }));
    e.target.disabled = false;
    if (answer.type === 'error') error.textContent = answer.message;
    else draw(answer.tournament);
  };
  const button = (action, label, primary = false) =>
    el('button', { type: 'button', class: primary ? 'primary' : null, dataset: { action }, onclick: act(action) }, label);
  const now = Date.now(), s = t.settings;
  const out = [];
  if (t.phase === 'registration') {
    if (!entry) out.push(button('register', 'Register', true));
    if (entry && s.check_in_ms > 0 && !entry.checked_in && now >= s.starts_ms - s.check_in_ms) out.push(button('check_in', 'Check in', true));
    if (entry) out.push(button('withdraw', 'Withdraw'));
    if (s.director === me) out.push(button('start', 'Start now'));
  } else if (t.phase === 'running' && entry) {
    out.push(button('withdraw', 'Withdraw'));
  }
  if (entry) out.push(el('span', { class: 'muted', id: 'my-entry' }, entry.checked_in && s.check_in_ms > 0 ? 'You are registered and checked in.' : 'You are registered.'));
  return out;
}

function tournamentBody(t, ctx) {
  const names = new Map(t.participants.map((p) => [p.id, p]));
  const me = ctx.account.player?.id;
  const who = (id) => {
    const p = names.get(id);
    const name = p?.name ?? id;
    return p && !p.bot ? el('a', { class: 'tap', href: `#player=${encodeURIComponent(id)}` }, name) : name;
  };
  const out = [];
  if (t.standings?.length && t.phase !== 'registration') {
    out.push(el('h3', {}, 'Standings'), el('table', { class: 'board-table', id: 'standings' },
      el('thead', {}, el('tr', {}, ['#', 'Player', 'Points', 'Buchholz', 'SB', 'Games'].map((h) => el('th', { title: h === 'SB' ? 'Sonneborn–Berger' : null }, h)))),
      el('tbody', {}, t.standings.map((r) => el('tr', { class: r.id === me ? 'me' : null, dataset: { player: r.id } },
        el('td', { class: 'num' }, String(r.rank)), el('td', {}, who(r.id), names.get(r.id)?.removed ? el('span', { class: 'muted' }, ' (out)') : null),
        el('td', { class: 'num points' }, pointsText(r.points)), el('td', { class: 'num' }, pointsText(r.buchholz)),
        el('td', { class: 'num' }, pointsText(r.sonneborn_berger)), el('td', { class: 'num' }, String(r.games)))))));
  } else {
    out.push(el('h3', {}, `Players (${t.participants.length})`), t.participants.length
      ? el('ul', { id: 'participants' }, t.participants.map((p) => el('li', { dataset: { player: p.id } }, who(p.id),
        p.bot ? el('span', { class: 'muted' }, ' (bot)') : null,
        t.settings.check_in_ms > 0 && p.checked_in ? el('span', { class: 'muted' }, ' (checked in)') : null)))
      : el('p', { class: 'muted' }, 'Nobody has registered yet.'));
  }
  for (const round of [...(t.rounds ?? [])].reverse()) out.push(...roundPart(t, round, who, me, ctx));
  return out;
}

// A round: its tables (players with their results, each game's replay and record) and byes.
function roundPart(t, round, who, me, ctx) {
  const k = (table) => Math.max(1, table.players.length - 1);
  const resultOf = (table, i) => table.results ? pointsText(table.results[i].reduce((a, b) => a + b, 0) / k(table)) : null;
  const rows = round.tables.map((table, n) => {
    const done = !!table.results;
    const mine = table.players.includes(me);
    const current = table.rooms.at(-1);
    return el('tr', { class: mine ? 'me' : null, dataset: { table: n + 1 } },
      el('td', { class: 'num' }, String(n + 1)),
      el('td', {}, el('ul', { class: 'table-players' }, table.players.map((p, i) => el('li', {}, who(p), done ? el('strong', { class: 'table-result' }, ` ${resultOf(table, i)}`) : null)))),
      el('td', {}, table.void ? 'void' : done ? 'played' : table.rooms.length ? 'playing' : 'waiting for a room'),
      el('td', {}, el('div', { class: 'game-links' },
        table.series ? el('a', { class: 'button-link', href: `#series=${encodeURIComponent(table.series)}`, dataset: { action: 'series' } }, 'Series') : null,
        mine && !done && current && t.phase === 'running'
          ? el('button', { type: 'button', class: 'primary', dataset: { action: 'play' }, onclick: () => ctx.playSeat(current, { tournament: t.id, round: round.number }) }, 'Play') : null,
        table.rooms.map((room, g) => [
          el('a', { class: 'button-link', href: roomLink(room), dataset: { action: 'replay', room } }, table.rooms.length > 1 ? `Game ${g + 1}` : done ? 'Replay' : 'Watch'),
          done || g < table.rooms.length - 1 ? el('a', { class: 'button-link', href: recordLink(room), target: '_blank', rel: 'noopener', dataset: { action: 'record', room } }, 'Record') : null]))));
  });
  return [
    el('h3', {}, `Round ${round.number}`, round.knockout ? ' (knockout)' : '', round.finished ? '' : el('span', { class: 'muted' }, ' — under way')),
    el('table', { class: 'board-table round', dataset: { round: round.number } },
      el('thead', {}, el('tr', {}, ['Table', 'Players', '', 'Games'].map((h) => el('th', {}, h)))),
      el('tbody', {}, rows)),
    round.byes?.length ? el('p', { class: 'muted byes' }, 'Bye: ', round.byes.map((id, i) => [i ? ', ' : '', who(id)])) : null,
  ].filter(Boolean);
}

// ---- a series

export function renderSeries(id) {
  const body = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
  const node = el('div', { class: 'page', id: 'series', dataset: { series: id } },
    el('section', { class: 'card' }, body, el('div', { class: 'form-row' }, el('a', { class: 'button-link', href: '#' }, 'Lobby'))));
  get(`/api/series/${encodeURIComponent(id)}`).then(({ series: s }) => {
    const name = (i) => (s.players[i] && !s.bots?.[i] ? el('a', { class: 'tap', href: `#player=${encodeURIComponent(s.players[i])}` }, s.names[i]) : s.names[i]);
    clear(body).append(...[
      el('h2', {}, `Best of ${s.best_of}: `, name(0), ' v ', name(1)),
      el('p', { id: 'series-score' }, el('strong', {}, `${pointsText(s.points[0])} – ${pointsText(s.points[1])}`),
        s.finished ? ` · ${s.winner === null || s.winner === undefined ? 'drawn' : `won by ${s.names[s.winner]}`}` : ' · under way',
        s.tournament ? [' · ', el('a', { href: `#tournament=${encodeURIComponent(s.tournament)}` }, 'the tournament')] : null),
      el('ol', { class: 'games' }, s.games.map((g, i) => el('li', { class: 'game-item', dataset: { room: g.room } },
        el('div', { class: 'game-line' }, el('strong', {}, `Game ${i + 1}`),
          g.scores ? el('span', {}, `${s.names[0]}${g.forfeited?.[0] ? ' (left)' : ''} ${g.scores[0]} – ${g.scores[1]} ${s.names[1]}${g.forfeited?.[1] ? ' (left)' : ''}`) : el('span', { class: 'muted' }, 'under way'),
          g.scores ? el('span', { class: 'muted game-winner' }, g.result === 1 ? `won by ${s.names[0]}` : g.result === 0 ? `won by ${s.names[1]}` : 'drawn') : null),
        el('div', { class: 'game-links' },
          el('a', { class: 'button-link', href: roomLink(g.room), dataset: { action: 'replay' } }, g.scores ? 'Replay' : 'Watch'),
          g.scores ? el('a', { class: 'button-link', href: recordLink(g.room), target: '_blank', rel: 'noopener', dataset: { action: 'record' } }, 'Record') : null)))),
    ]);
  }).catch((e) => clear(body).append(el('p', { role: 'alert' }, errorText(e))));
  return node;
}

// ---- a player's competitions, for the profile

export async function competitionsPart(node, playerId) {
  let list;
  try { list = (await paged(`/api/players/${encodeURIComponent(playerId)}/competitions`, 0, PAGE)).competitions; } catch (e) {
    if (e.code === 'competition_unavailable') { node.remove(); return; }
    clear(node).append(el('h3', {}, 'Series and tournaments'), el('p', { role: 'alert' }, errorText(e)));
    return;
  }
  clear(node).append(el('h3', {}, 'Series and tournaments'), list.length
    ? el('ul', { class: 'competitions' }, list.map((c) => el('li', { dataset: { [c.kind]: c.id } }, c.kind === 'tournament'
      ? [el('a', { class: 'tap', href: `#tournament=${encodeURIComponent(c.id)}` }, c.name ?? c.id), el('span', { class: 'muted' }, ` — tournament, ${formatText(c)}, ${PHASES[c.phase] ?? c.phase ?? ''}`)]
      : [el('a', { class: 'tap', href: `#series=${encodeURIComponent(c.id)}` }, `Best of ${c.best_of}: ${(c.names ?? []).join(' v ')}`),
        el('span', { class: 'muted' }, c.points ? ` — ${c.points.map(pointsText).join(' – ')}${c.finished ? '' : ', under way'}` : '')])))
    : el('p', { class: 'muted' }, 'None yet.'));
}
