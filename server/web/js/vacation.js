// Vacation (docs/protocol.md §21 "Vacation", docs/web.md "My games"): the player's correspondence
// clocks hold for a number of days a year. GET /api/me says how many days are left and until when
// the vacation under way lasts; "Go on vacation" / "Add days" POST /api/me/vacation, "I'm back"
// DELETE it. The other seats see the held clock in their games.
import { get, post, del, errorText } from './api.js';
import { el, clear } from './dom.js';

const dateText = (ms) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function vacationCard() {
  const body = el('div', { id: 'vacation-body' }, el('p', { class: 'muted' }, 'Loading…'));
  const node = el('section', { class: 'card', id: 'vacation' }, el('h2', {}, 'Vacation'), body);
  const show = (v, error = '') => {
    clear(body);
    const away = v.until_ms !== null;
    const days = el('input', { type: 'number', id: 'vacation-days', min: 1, max: Math.max(1, v.days_left), value: Math.min(7, Math.max(1, v.days_left)), 'aria-label': 'days', disabled: v.days_left < 1 });
    const status = el('p', { id: 'vacation-status', dataset: { until: away ? String(v.until_ms) : '' } },
      away ? `On vacation until ${dateText(v.until_ms)}: your correspondence clocks hold.` : 'Not on vacation.',
      ` ${v.days_left} of ${v.days_per_year} days left this year.`);
    const take = async () => {
      try { show((await post('/api/me/vacation', { days: Number(days.value) })).vacation); } catch (e) { show(v, errorText(e)); }
    };
    const back = async () => {
      try { show((await del('/api/me/vacation')).vacation); } catch (e) { show(v, errorText(e)); }
    };
    body.append(status,
      el('p', { class: 'muted' }, 'While you are away, your clocks in correspondence games that allow it do not run, and the other players see it. Each day begun counts.'),
      el('div', { class: 'row' },
        el('label', { for: 'vacation-days' }, 'Days '), days,
        el('button', { type: 'button', id: 'vacation-take', class: 'primary', onclick: take, disabled: v.days_left < 1 }, away ? 'Add days' : 'Go on vacation'),
        away ? el('button', { type: 'button', id: 'vacation-end', onclick: back }, "I'm back") : null),
      error ? el('p', { class: 'error', id: 'vacation-error', role: 'alert' }, error) : null);
  };
  get('/api/me').then((me) => {
    if (me.vacation) show(me.vacation);
    else { clear(body).append(el('p', { class: 'muted' }, 'This server has no vacations.')); }
  }).catch((e) => clear(body).append(el('p', { class: 'error' }, errorText(e))));
  return node;
}
