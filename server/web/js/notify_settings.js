// Notification settings (docs/web.md "Notifications", docs/protocol.md §23): which events reach
// the player on which channel, from GET /api/me/notifications and saved with PUT: Web Push on this
// browser (the service worker sw.js, a PushManager subscription under the server's VAPID key,
// registered with POST /api/me/push-subscriptions), a webhook (its signing secret is shown once,
// when set), and e-mail where the server sends mail.
import { get, put, post, del, errorText } from './api.js';
import { el, clear } from './dom.js';

export const KINDS = [
  ['your_turn', 'Your turn'],
  ['undo_requested', 'Undo requested'],
  ['rematch_offered', 'Rematch offered'],
  ['game_over', 'Game over'],
  ['tournament_round', 'Tournament round starting'],
];
export const CHANNELS = [['push', 'Push'], ['webhook', 'Webhook'], ['email', 'E-mail']];

const PUSH_KEY = 'carcassonne.push_subscription';  // this browser's subscription id at the server

// Registers the service worker (scope "/"): push notifications need it. Never throws.
export async function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return null;
  try {
    return await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch {
    return null;
  }
}

// The VAPID public key (base64url, RFC 8292) as PushManager wants it.
export function vapidKeyBytes(key) {
  const b64 = key.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (key.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function subscribePush(settings) {
  if (!('PushManager' in window)) throw new Error('This browser has no push notifications.');
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('Notifications are blocked for this site.');
  const reg = (await registerServiceWorker()) && (await navigator.serviceWorker.ready);
  if (!reg) throw new Error('The service worker could not be installed.');
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidKeyBytes(settings.vapid_public_key) });
  const made = await post('/api/me/push-subscriptions', sub.toJSON());
  localStorage.setItem(PUSH_KEY, made.id);
}

async function unsubscribePush() {
  const id = localStorage.getItem(PUSH_KEY);
  if (id) await del(`/api/me/push-subscriptions/${encodeURIComponent(id)}`).catch(() => {});
  localStorage.removeItem(PUSH_KEY);
  const reg = await navigator.serviceWorker?.getRegistration('/');
  const sub = await reg?.pushManager?.getSubscription();
  await sub?.unsubscribe();
}

function eventsTable(s, save) {
  const channels = CHANNELS.filter(([c]) => c !== 'email' || s.email_available);
  const box = (kind, channel) => el('input', {
    type: 'checkbox', id: `notify-${kind}-${channel}`, 'aria-label': `${kind} by ${channel}`,
    checked: (s.events?.[kind] ?? []).includes(channel),
    onchange: (e) => {
      const now = new Set(s.events?.[kind] ?? []);
      if (e.target.checked) now.add(channel); else now.delete(channel);
      save({ events: { ...s.events, [kind]: [...now] } });
    },
  });
  return el('table', { class: 'notify-events' },
    el('thead', {}, el('tr', {}, el('th', {}, 'Event'), channels.map(([, label]) => el('th', {}, label)))),
    el('tbody', {}, KINDS.map(([kind, label]) => el('tr', {}, el('th', { scope: 'row' }, label),
      channels.map(([channel]) => el('td', {}, box(kind, channel)))))));
}

export function notifySettingsCard() {
  const body = el('div', { id: 'notify-body' }, el('p', { class: 'muted' }, 'Loading…'));
  const node = el('section', { class: 'card wide', id: 'notify-settings' }, el('h2', {}, 'Notifications'), body);
  let secret = null;  // a new webhook's secret, shown once
  const show = (s, error = '') => {
    clear(body);
    const save = async (change) => {
      try {
        const next = await put('/api/me/notifications', { events: s.events, webhook: s.webhook, email: s.email, ...change });
        secret = next.webhook_secret ?? null;
        show(next);
      } catch (e) { show(s, errorText(e)); }
    };
    const subscribed = !!localStorage.getItem(PUSH_KEY);
    const pushButton = el('button', {
      type: 'button', id: subscribed ? 'push-unsubscribe' : 'push-subscribe',
      onclick: async () => {
        try { if (subscribed) await unsubscribePush(); else await subscribePush(s); show(await get('/api/me/notifications')); } catch (e) { show(s, e.message); }
      },
    }, subscribed ? 'Stop push on this browser' : 'Push notifications on this browser');
    const hook = el('input', { type: 'url', id: 'webhook-url', value: s.webhook?.url ?? '', placeholder: 'https://…', 'aria-label': 'webhook URL' });
    const mail = el('input', { type: 'email', id: 'notify-email', value: s.email ?? '', placeholder: 'you@example.org', 'aria-label': 'e-mail address' });
    body.append(
      eventsTable(s, save),
      el('div', { class: 'row' }, pushButton, el('span', { class: 'muted' }, ` ${(s.push ?? []).length} browser(s) subscribed`)),
      el('div', { class: 'row' }, el('label', { for: 'webhook-url' }, 'Webhook '), hook,
        el('button', { type: 'button', id: 'webhook-save', onclick: () => save({ webhook: hook.value.trim() ? { url: hook.value.trim() } : null }) }, 'Save')),
      secret ? el('p', { id: 'webhook-secret' }, 'Signing secret (shown once, keep it now): ', el('code', {}, secret)) : null,
      s.email_available ? el('div', { class: 'row' }, el('label', { for: 'notify-email' }, 'E-mail '), mail,
        el('button', { type: 'button', id: 'email-save', onclick: () => save({ email: mail.value.trim() || null }) }, 'Save')) : null,
      error ? el('p', { class: 'error', id: 'notify-error', role: 'alert' }, error) : null);
  };
  get('/api/me/notifications').then((s) => show(s))
    .catch((e) => clear(body).append(el('p', { class: 'muted', id: 'notify-unavailable' },
      e.status === 404 ? 'This server sends no notifications.' : errorText(e))));
  return node;
}
