// The players panel: the score track, each seat's score, followers left, whether it is connected, whose turn it
// is and who must act; the supply; each expansion's own lines (expansions.js); and, once the
// game is over, the final scores.
import { el } from './dom.js';
import { expansionName, seatColour, plural } from './names.js';
import { collect } from './expansions.js';
import { CATEGORIES } from './score_breakdown.js';
import { seatBotMark } from './bots.js';
import { scoreTrack } from './score_track.js';

const category = (c) => CATEGORIES.find(([k]) => k === c) ?? [c, c, c];

// `breakdown`: a ScoreBreakdown from the events (score_breakdown.js), or null while unknown.
export function renderPanel(view, { me, breakdown = null, final = true }) {
  const game = view.game;
  const room = view.room;
  const connected = (seat) => room.seats.find((s) => s.seat === seat)?.connected;
  const players = el('ul', { class: 'players' }, game.players.map((p) => {
    const details = [el('span', { title: 'followers in supply' }, `${plural(p.supply?.meeple ?? 0, 'follower')} left`)];
    details.push(...collect(game, 'seatDetails', p, el));
    if (!connected(p.seat) && game.status === 'playing') details.push(el('span', { class: 'offline' }, 'offline'));
    const earned = breakdown ? Object.entries(breakdown.of(p.seat)).filter(([, v]) => v !== 0) : [];
    const runningBreakdown = earned.length
      ? el('span', { class: 'breakdown', title: 'points so far, by where they came from' },
        CATEGORIES.filter(([c]) => earned.some(([k]) => k === c)).map(([c, word]) => el('span', { class: `bd bd-${c}` }, `${word} ${breakdown.of(p.seat)[c]}`)))
      : null;
    const active = game.active === p.seat;
    const toAct = game.awaiting?.seat === p.seat;
    return el('li', { class: `player${active ? ' active' : ''}${toAct ? ' to-act' : ''}`, dataset: { seat: p.seat } },
      el('span', { class: 'swatch', style: `background:${seatColour(p.seat)}` }),
      el('span', { class: 'name' }, p.name ?? `seat ${p.seat}`, seatBotMark(room.seats.find((s) => s.seat === p.seat)), p.seat === me ? ' (you)' : '', active ? ' ▶' : ''),
      el('span', { class: 'score', dataset: { score: p.score } }, String(p.score)),
      el('span', { class: 'details' }, details), runningBreakdown);
  }));

  const info = [`turn ${game.turn}`, `${plural(game.tiles_left, 'tile')} left`];
  info.push(...collect(game, 'gameInfo'));
  if (game.discarded?.length) info.push(`discarded: ${game.discarded.join(', ')}`);
  const expansions = game.expansions.length ? game.expansions.map(expansionName).join(', ') : 'base game';

  const parts = [el('h2', {}, 'Players'), scoreTrack(game.players), players,
    el('div', { class: 'game-info' }, info.map((t) => el('span', {}, t))),
    el('div', { class: 'game-info' }, el('span', {}, expansions),
      room.spectators ? el('span', {}, plural(room.spectators, 'spectator')) : null,
      room.spectator_delay ? el('span', {}, `spectators see ${plural(room.spectator_delay, 'move')} late`) : null)];
  parts.push(...collect(game, 'ownPanel', el));
  if (game.status === 'finished' && final) parts.unshift(finalScores(game, breakdown));
  return el('div', { class: 'panel' }, parts);
}

// The final scores, with the points of each seat by category when the whole game's events
// are known and add up to the scores (else the totals alone). One column per seat, best first,
// and a row per category: a narrow panel (a phone) holds six seats, however many categories.
export function finalScores(game, breakdown) {
  const ranked = [...game.players].sort((a, b) => b.score - a.score);
  const best = ranked[0]?.score;
  const exact = breakdown && game.players.every((p) => breakdown.total(p.seat) === p.score);
  const cats = exact ? breakdown.used().map(([c]) => c) : [];
  const extra = collect(game, 'finalColumns');
  const place = (p) => ranked.findIndex((q) => q.score === p.score) + 1;
  const row = (head, attrs, value, cellClass = '') => el('tr', attrs, el('th', { scope: 'row', title: attrs.title }, head),
    ranked.map((p) => el('td', { class: `num ${cellClass}${p.score === best ? ' winner' : ''}`, dataset: { seat: p.seat } }, value(p))));
  return el('section', { class: 'final card' }, el('h2', {}, 'Final scores'),
    el('div', { class: 'final-wrap' }, el('table', { class: 'final', dataset: { breakdown: exact ? 'yes' : 'no' } },
      el('thead', {}, el('tr', {}, el('th', {}, ''), ranked.map((p) => el('th', { scope: 'col', class: `num player-head${p.score === best ? ' winner' : ''}`, dataset: { seat: p.seat }, title: p.name },
        el('span', { class: 'swatch', style: `background:${seatColour(p.seat)}` }), ' ', el('span', { class: 'final-name' }, p.name))))),
      el('tbody', {},
        row('place', { class: 'place' }, (p) => String(place(p))),
        row('points', { class: 'total' }, (p) => String(p.score), 'final-score'),
        cats.map((c) => row(category(c)[1], { class: 'cat', dataset: { cat: c }, title: `points from ${category(c)[1]}` }, (p) => String(breakdown.of(p.seat)[c] ?? 0))),
        extra.map(([head, value]) => row(head, { class: 'extra' }, value))))),
    exact ? el('p', { class: 'muted small-note' }, 'Points by where they came from: ', cats.map((c) => category(c)[1]).join(', '), '.') : null);
}
