#!/usr/bin/env node
// Browser test of the installable page, the vacation controls, "My games" and the notification
// settings (server/web/manifest.webmanifest, sw.js, js/vacation.js, my_games.js,
// notify_settings.js; docs/web.md "My games", "Installing the page"), run by run_web_test.sh:
//
//   node tests/web/notify_web_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// The manifest is served as application/manifest+json, is valid and names icons that are
// served; the service worker registers with the scope "/". Ann goes on vacation for 3 days from
// the page (18 of 21 days left), is refused 30 more in the server's words, and comes back (one
// day used). Then Ann's correspondence game against a bot is in "My games" (GET /api/me/games),
// the page opens there, and a notification checkbox is saved.
// Exit 0 on success, 1 with a message on failure.
import { join } from 'node:path';
import { webTest } from './harness.mjs';

const t = webTest('notify_web_test');
const { base, artifacts, step } = t;

const expect = (ok, what) => { if (!ok) throw new Error(what); };

t.run(async () => {
  const page = await t.open('Ann');  // refusals (409) are logged by the browser: not errors here
  await page.goto(base);
  await page.waitForFunction(() => window.carcassonne?.account?.player);

  step('the manifest and its icon');
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel="manifest"]')?.getAttribute('href');
    const res = await fetch(link);
    const body = await res.json();
    const icons = [];
    for (const i of body.icons) {
      const r = await fetch(new URL(i.src, location.href));
      const img = new Image();
      img.src = new URL(i.src, location.href).href;  // the page's CSP allows 'self', not blob:
      const decoded = await img.decode().then(() => true, () => false);
      icons.push({ ...i, status: r.status, served: r.headers.get('content-type'), width: decoded ? img.naturalWidth : 0, height: decoded ? img.naturalHeight : 0 });
    }
    return { link, type: res.headers.get('content-type'), body, icons };
  });
  expect(manifest.link === '/manifest.webmanifest', `the manifest link is ${manifest.link}`);
  expect(manifest.type === 'application/manifest+json', `the manifest's type is ${manifest.type}`);
  expect(manifest.body.name === 'Carcassonne' && manifest.body.start_url === '/' && manifest.body.display === 'standalone',
    `the manifest: ${JSON.stringify(manifest.body)}`);
  // Each icon served with its type and at its size; installing wants 192 and 512 px, one maskable.
  for (const i of manifest.icons) {
    expect(i.status === 200 && i.served === i.type, `the icon ${i.src}: ${i.status} ${i.served}`);
    if (i.sizes !== 'any') expect(i.sizes === `${i.width}x${i.height}`, `the icon ${i.src} is ${i.width}x${i.height}, not ${i.sizes}`);
  }
  expect(manifest.icons.some((i) => i.sizes === '192x192' && i.type === 'image/png'), 'a 192 px PNG icon');
  expect(manifest.icons.some((i) => i.sizes === '512x512' && i.type === 'image/png' && i.purpose === 'any'), 'a 512 px PNG icon');
  expect(manifest.icons.some((i) => i.purpose === 'maskable' && i.type === 'image/png'), 'a maskable PNG icon');

  step('the service worker, scope /');
  const sw = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return { scope: reg.scope, script: reg.active?.scriptURL ?? null };
  });
  expect(sw.scope === `${base}/`, `the service worker's scope is ${sw.scope}`);
  expect(sw.script === `${base}/sw.js`, `the service worker is ${sw.script}`);

  step('vacation: 3 days, 30 more refused, back');
  await page.click('#to-games-in-play');
  await page.waitForFunction(() => location.hash === '#games');
  await page.locator('#vacation-status', { hasText: 'Not on vacation. 21 of 21 days left this year.' }).waitFor();
  await page.fill('#vacation-days', '3');
  await page.click('#vacation-take');
  await page.locator('#vacation-status', { hasText: '18 of 21 days left' }).waitFor();
  const until = Number(await page.locator('#vacation-status').getAttribute('data-until'));
  const days = Math.round((until - Date.now()) / 86400000);
  expect(days === 3, `the vacation lasts ${days} days`);
  await page.fill('#vacation-days', '30');
  await page.click('#vacation-take');
  await page.locator('#vacation-error', { hasText: 'only 18 days of vacation are left this year' }).waitFor();
  await page.screenshot({ path: join(artifacts, 'vacation.png') });
  await page.click('#vacation-end');
  await page.locator('#vacation-status', { hasText: 'Not on vacation. 20 of 21 days left this year.' }).waitFor();

  step('My games: a correspondence game against a bot');
  const room = await page.evaluate(async () => {
    const conn = window.carcassonne.conn;
    const made = await conn.request({ type: 'create_room', seats: 2, match: { clock: 'correspondence', move_hours: 24 } });
    await conn.join(made.room, window.carcassonne.account.player.name);
    await conn.request({ type: 'add_bot', level: 'random' });
    await conn.request({ type: 'start' });
    return made.room;
  });
  await page.goto(base);  // no hash: the page opens on the games
  await page.waitForFunction(() => location.hash === '#games');
  await page.locator(`#games-in-play tr[data-room="${room}"]`).waitFor();
  step('notification settings: a checkbox saved');
  await page.locator('#notify-your_turn-push').waitFor();
  const was = await page.isChecked('#notify-your_turn-push');
  await page.click('#notify-your_turn-push');
  await page.waitForFunction(async (w) => {
    const s = await (await fetch('/api/me/notifications')).json();
    return (s.events?.your_turn ?? []).includes('push') !== w;
  }, was);
  await page.screenshot({ path: join(artifacts, 'my-games.png') });
});
