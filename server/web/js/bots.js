// Bots on the page (docs/protocol.md §20): the create form's bot seats, the waiting room's Add
// and Remove buttons for the creator (and Start for a creator who watches a bots-only room),
// and the marks that say a seat is a bot, or is played by one while its owner is away.
import { el } from './dom.js';
import { get } from './api.js';

// The ladder, weakest first (docs/bots.md "The ladder"), then the algorithms by name.
export const LADDER = ['beginner', 'casual', 'intermediate', 'advanced', 'expert'];
export const LEVELS = ['random', 'greedy', 'strong'];

// GET /api/bots, asked once: each level's summary and its account's ratings.
let levelsInfo = null;
function botLevels() {
  levelsInfo ??= get('/api/bots').then((d) => d.levels ?? []).catch(() => []);
  return levelsInfo;
}

// A level's rating for the chooser: its two-player base game rating (the pool the ladder is
// measured in), else the first pool it has; "?" marks a provisional one.
export function ratingText(info) {
  const rows = info?.ratings ?? [];
  const r = rows.find((x) => x.pool === 'duel') ?? rows[0];
  return r ? `${Math.round(r.rating)}${r.provisional ? '?' : ''}` : '';
}

// The level chooser: the ladder's steps, then the algorithms; each option says its rating once
// the server has told it (the option's data-rating holds it; its title the level's summary).
export function levelSelect(attrs, selected = 'greedy') {
  const option = (l) => el('option', { value: l, selected: l === selected }, l);
  const select = el('select', attrs,
    el('optgroup', { label: 'Ladder' }, LADDER.map(option)),
    el('optgroup', { label: 'Algorithms' }, LEVELS.map(option)));
  botLevels().then((levels) => {
    for (const info of levels) {
      const o = [...select.options].find((x) => x.value === info.level);
      if (!o) continue;
      const rating = ratingText(info);
      o.title = info.summary ?? '';
      if (!rating) continue;
      o.dataset.rating = rating;
      o.textContent = `${info.level} (rated ${rating})`;
    }
  });
  return select;
}

// The create form's part: how many bots, their level, their pause, the takeover delay. Bots
// take the last seats, so that whoever sits takes seat 0. fields(seats) adds to create_room.
export function botsFormPart() {
  const count = el('input', { type: 'number', min: 0, max: 6, value: 0, id: 'bot-count', style: 'width:4em', 'aria-label': 'bots' });
  const level = levelSelect({ id: 'bot-level', 'aria-label': 'bot level' });
  const pause = el('input', { type: 'number', min: 0, max: 10, step: 0.5, value: 1, id: 'bot-pause', style: 'width:4em', 'aria-label': 'bot pause' });
  const takeover = el('input', { type: 'number', min: 0, max: 3600, value: 0, id: 'takeover-after', style: 'width:5em', 'aria-label': 'takeover after' });
  const node = el('div', { class: 'form-row bots-form' },
    el('label', {}, 'Bots', count), el('label', {}, 'playing', level),
    el('label', {}, 'pausing', pause, 's'),
    el('label', { title: 'a bot plays for a player who is away on their turn this long (0: never)' }, 'take over an absent player after', takeover, 's'));
  function fields(seats) {
    const n = Math.max(0, Math.min(seats, Number(count.value) || 0));
    const out = {};
    if (n) out.bots = Array.from({ length: seats }, (_, i) => (i >= seats - n ? level.value : null));
    const ms = Math.round((Number(pause.value) || 0) * 1000);
    if (ms !== 1000) out.bot_pause_ms = Math.max(0, Math.min(10000, ms));
    if (Number(takeover.value) > 0) out.takeover_after = Math.round(Number(takeover.value));
    return out;
  }
  // With every seat a bot nobody can sit: the creator watches (and starts) the game.
  const allBots = (seats) => Number(count.value) >= seats;
  return { node, fields, allBots };
}

// What follows a seat's name: "(bot: greedy)", or "played by a greedy bot" while its owner is away.
export function seatBotMark(seat) {
  if (seat?.bot) return el('span', { class: 'bot-mark', dataset: { bot: seat.bot } }, ` (bot: ${seat.bot})`);
  if (seat?.played_by) return el('span', { class: 'bot-mark played-by', dataset: { playedBy: seat.played_by } }, ` (away: a ${seat.played_by} bot plays)`);
  return null;
}

// The lobby row's note: how many of the taken seats are bots.
export function roomBotsNote(summary) {
  const n = summary.bots?.length ?? 0;
  return n ? el('div', { class: 'muted bot-mark' }, n === 1 ? '1 bot' : `${n} bots`) : null;
}

// The waiting room's controls. ctx: {creator, mode, request(message), notice(text, kind)}.
export function waitingRoomBots(room, ctx) {
  if (!ctx.creator) return null;
  const act = async (message) => {
    const answer = await ctx.request(message).catch((e) => ({ type: 'error', message: e.message }));
    if (answer.type === 'error') ctx.notice(answer.message, 'error');
  };
  const free = room.seats.some((s) => s.name === null);
  const level = levelSelect({ id: 'add-bot-level', 'aria-label': 'bot level' });
  const bots = room.seats.filter((s) => s.bot);
  const taken = room.seats.filter((s) => s.name !== null).length;
  return el('div', { class: 'bots-controls' },
    free ? el('div', { class: 'form-row' }, level,
      el('button', { type: 'button', dataset: { action: 'add-bot' }, onclick: () => act({ type: 'add_bot', level: level.value }) }, 'Add a bot')) : null,
    bots.length ? el('div', { class: 'form-row' }, bots.map((s) =>
      el('button', { type: 'button', class: 'small', dataset: { action: 'remove-bot', seat: s.seat }, onclick: () => act({ type: 'remove_bot', seat: s.seat }) }, `Remove ${s.name}`))) : null,
    // A creator who watches (a bots-only room) starts it from here.
    ctx.mode !== 'seat' ? el('button', { type: 'button', class: 'primary', disabled: taken < 2, dataset: { action: 'start' }, onclick: () => act({ type: 'start' }) }, 'Start the game') : null);
}
