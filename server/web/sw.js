// The page's service worker (docs/web.md "Notifications"), served at /sw.js with the scope "/".
// It shows the Web Push notifications the server sends (their payload: title, body, url, tag,
// kinds, unsubscribe), opens or focuses the game's page on a click, and its "Unsubscribe" action
// calls the payload's unsubscribe URL, which turns that kind off for this subscription. It caches
// nothing: the page always comes from the server.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// A payload that is not the server's JSON still shows something rather than nothing (browsers
// require a notification for every push).
function payloadOf(event) {
  try {
    const data = event.data ? event.data.json() : {};
    return typeof data === 'object' && data !== null ? data : {};
  } catch {
    return { body: event.data ? event.data.text() : '' };
  }
}

// Only this server's own paths are followed (a payload names a path, never another site).
function samePath(url, fallback) {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return fallback;
  return url;
}

self.addEventListener('push', (event) => {
  const p = payloadOf(event);
  const unsubscribe = samePath(p.unsubscribe, null);
  const options = {
    body: typeof p.body === 'string' ? p.body : '',
    tag: typeof p.tag === 'string' ? p.tag : undefined,
    renotify: typeof p.tag === 'string',
    icon: '/static/favicon.svg',
    badge: '/static/favicon.svg',
    data: { url: samePath(p.url, '/'), unsubscribe, kinds: Array.isArray(p.kinds) ? p.kinds : [] },
    actions: unsubscribe ? [{ action: 'unsubscribe', title: 'Unsubscribe' }] : [],
  };
  event.waitUntil(self.registration.showNotification(typeof p.title === 'string' && p.title ? p.title : 'Carcassonne', options));
});

// "/?room=ID" (the payload's form) opens the room; a window of this page already open is focused
// and sent there instead of opening another.
async function openPage(url) {
  const target = new URL(url, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const w of windows) {
    if (new URL(w.url).origin !== self.location.origin) continue;
    await w.focus();
    if (w.url !== target && 'navigate' in w) await w.navigate(target).catch(() => {});
    return;
  }
  await self.clients.openWindow(target);
}

// The unsubscribe URL carries its own token (no session needed): POSTed, or fetched if the server
// takes it only that way.
async function unsubscribe(url) {
  const posted = await fetch(url, { method: 'POST', credentials: 'omit', headers: { 'Content-Type': 'application/json' }, body: '{}' }).catch(() => null);
  if (posted?.ok) return;
  await fetch(url, { credentials: 'omit' }).catch(() => {});
}

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data ?? {};
  event.notification.close();
  if (event.action === 'unsubscribe') {
    if (data.unsubscribe) event.waitUntil(unsubscribe(data.unsubscribe));
    return;
  }
  event.waitUntil(openPage(data.url ?? '/'));
});
