// A room before its game starts: the seats, the link to share, and Join, Leave and Start.
import { el } from './dom.js';
import { expansionName, seatColour } from './names.js';
import { seatBotMark, waitingRoomBots } from './bots.js';
import { matchSummary } from './clocks.js';

// ctx: {mode: 'seat' | 'spectator', mySeat, creator, name, signedIn, join(name, seat), start(), leave()}
// A signed-in player sits under the account's name: no name field then.
export function renderWaitingRoom(room, ctx) {
  const link = `${location.origin}/#room=${room.id}`;
  const taken = room.seats.filter((s) => s.name !== null).length;
  const free = room.seats.filter((s) => s.name === null);
  const nameInput = el('input', { type: 'text', maxlength: 40, value: ctx.name, placeholder: 'your name', 'aria-label': 'your name', id: 'join-name' });
  const options = Object.entries(room.options ?? {});
  return el('div', { class: 'page' },
    el('section', { class: 'card' },
      el('h2', {}, room.name),
      el('p', { class: 'muted' }, room.expansions.length ? room.expansions.map(expansionName).join(', ') : 'Base game',
        options.length ? ` — ${options.map(([k, v]) => `${k}: ${v}`).join(', ')}` : '',
        room.match ? ` — ${matchSummary(room.match)}` : '',
        room.public ? '' : ' — private room', room.spectator_delay ? ` — spectators see ${room.spectator_delay} moves late` : ''),
      el('div', { class: 'share' }, el('label', { for: 'share-link' }, 'Invite with this link:'),
        el('input', { type: 'text', readonly: true, value: link, id: 'share-link', onfocus: (e) => e.target.select() }),
        el('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(link) }, 'Copy')),
      el('h3', {}, `Seats (${taken} of ${room.seats.length} taken)`),
      el('ul', { class: 'seats' }, room.seats.map((s) => el('li', { dataset: { seat: s.seat } },
        el('span', { class: 'swatch', style: `background:${seatColour(s.seat)}` }),
        s.name === null ? el('span', { class: 'muted' }, 'free') : el('span', {}, s.name), seatBotMark(s),
        s.seat === ctx.mySeat ? el('strong', {}, ' (you)') : null,
        s.name !== null && !s.connected ? el('span', { class: 'muted' }, ' (offline)') : null,
        s.name === null && ctx.mode !== 'seat' ? el('button', { type: 'button', class: 'small', dataset: { action: 'join-seat' }, onclick: () => ctx.join(nameInput.value, s.seat) }, 'Sit here') : null))),
      waitingRoomBots(room, ctx),
      ctx.mode !== 'seat' && free.length
        ? el('div', { class: 'form-row' }, ctx.signedIn ? el('span', {}, 'as ', el('strong', {}, ctx.name)) : nameInput, el('button', { type: 'button', class: 'primary', dataset: { action: 'join' }, onclick: () => ctx.join(nameInput.value) }, 'Join the game'))
        : null,
      ctx.mode === 'seat'
        ? el('div', { class: 'form-row' },
          ctx.creator ? el('button', { type: 'button', class: 'primary', disabled: taken < 2, dataset: { action: 'start' }, onclick: () => ctx.start() }, 'Start the game') : null,
          ctx.creator ? null : el('span', { class: 'muted' }, 'Waiting for the room’s creator to start the game.'),
          el('button', { type: 'button', dataset: { action: 'leave-seat' }, onclick: () => ctx.leave() }, 'Leave my seat'))
        : el('p', { class: 'muted' }, 'You are watching this room.')));
}
