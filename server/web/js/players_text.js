// Words shared by the profile and the leaderboards: the rating pools (docs/protocol.md §23), a
// rating as shown (rounded, provisional ones marked), and a finished game's result for a seat.
import { el } from './dom.js';

export const POOLS = [
  ['duel', 'Duel', 'two players, the base game'],
  ['duel_expansions', 'Duel with expansions', 'two players, any expansion'],
  ['multi', '3–6 players', 'rated pair by pair'],
];
export const poolName = (id) => POOLS.find(([p]) => p === id)?.[1] ?? id;

export function ratingText(r) {
  return el('span', { class: `rating${r.provisional ? ' provisional' : ''}`, title: `deviation ${Math.round(r.deviation)}` },
    String(Math.round(r.rating)), r.provisional ? el('span', { class: 'provisional-mark' }, ' provisional') : null);
}

// "won", "lost", "draw" in a duel; "1st of 3", "shared 2nd of 4" at a larger table. A seat that
// forfeited is behind every seat that did not, whatever the scores, and level with every other
// seat that forfeited (as the ratings count it, docs/protocol.md §23).
export function resultOf(game, seatIndex) {
  const me = game.seats[seatIndex];
  const beats = (a, b) => (!!a.forfeited !== !!b.forfeited ? !a.forfeited : !a.forfeited && a.score > b.score);
  const ahead = game.seats.filter((s) => beats(s, me)).length;
  const level = game.seats.filter((s, i) => i !== seatIndex && !beats(s, me) && !beats(me, s)).length;
  if (game.seats.length === 2) return ahead ? 'lost' : level ? 'draw' : 'won';
  const place = ahead + 1;
  const suffix = place === 1 ? 'st' : place === 2 ? 'nd' : place === 3 ? 'rd' : 'th';
  return `${level ? 'shared ' : ''}${place}${suffix} of ${game.seats.length}`;
}

export const dateText = (ms) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
