#!/usr/bin/env node
// Browser test of accounts on the page (server/web/js/account.js, account_panel.js, profile.js,
// leaderboard.js; docs/web.md "Accounts"), in Debian's Chromium driven by playwright-core, run by
// run_web_test.sh like web_test.mjs:
//
//   node tests/web/accounts_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// On a phone, Zoe's first visit makes a guest at once (its key kept in localStorage; a reload is
// the same player); a weak password is refused with the server's words; she signs up as
// "Zoe Tester". She creates a two-seat room with a random bot, starts it and resigns: a rated
// duel ends. Her profile ("My games") shows one duel game, a provisional duel rating, and the
// game with its result and links to the replay (which shows the final scores) and the record
// (whose seat carries her player id). The duel leaderboard lists her and the bot. She signs out
// (a new guest, and the connection with it), a wrong password is refused, and she signs in by
// name again (the connection authenticated as her). On every screen no button or link is under
// 44 × 44 px and nothing is wider than the phone. Exit 0 on success, 1 with a message on failure.
import { join } from 'node:path';
import { webTest, checkPhoneSizes } from './harness.mjs';

const t = webTest('accounts_test');
const { base, artifacts, step } = t;
const NAME = 'Zoe Tester';
const PASSWORD = 'meeples on the river';

// Console errors fail the test, except the browser's own line for an HTTP error the step
// provokes on purpose (a refused password).
let provoking = false;
function watchConsole(page) {
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (provoking && /Failed to load resource: the server responded with a status of 40[01]/.test(m.text())) return;
    t.errors.push(`zoe console: ${m.text()}`);
  });
}
async function provoke(work) {
  provoking = true;
  try { await work(); } finally { provoking = false; }
}

const me = (page) => page.evaluate(() => ({ account: window.carcassonne.account.player, socket: window.carcassonne.conn.player }));

async function main() {
  const zoe = await t.open('zoe', { acceptDialogs: true, phone: true });
  watchConsole(zoe);
  const shot = (name) => zoe.screenshot({ path: join(artifacts, `accounts-${name}.png`), fullPage: true });

  // ---- A guest at once, kept across a reload.
  await zoe.goto(base);
  await zoe.locator('#account-name', { hasText: /^Guest/ }).waitFor();
  await zoe.waitForFunction(() => window.carcassonne.conn.player !== null);
  const guest = await me(zoe);
  const kept = await zoe.evaluate(() => JSON.parse(localStorage.getItem('carcassonne.v1')).guest);
  if (kept?.player !== guest.account.id || !/^[0-9a-f]{64}$/.test(kept.key) || guest.socket?.id !== guest.account.id)
    throw new Error(`the guest: ${JSON.stringify({ guest, kept })}`);
  await zoe.reload();
  await zoe.locator('#account-name', { hasText: guest.account.name }).waitFor();
  if ((await me(zoe)).account.id !== guest.account.id) throw new Error('a reload made another player');
  await checkPhoneSizes(zoe, 'the lobby of a guest');
  await shot('01-guest');
  step(`a guest at once: ${guest.account.name} (${guest.account.id}), the same after a reload`);

  // ---- Sign up: a weak password refused, then the name claimed.
  await zoe.click('#account-forms summary');
  await zoe.fill('#sign-up-name', NAME);
  await zoe.fill('#sign-up-password', 'password');
  await provoke(async () => {
    await zoe.click('#sign-up-submit');
    await zoe.locator('#account-error', { hasText: /password/i }).waitFor();
  });
  await zoe.fill('#sign-up-password', PASSWORD);
  await zoe.click('#sign-up-submit');
  await zoe.locator('#account-name', { hasText: NAME }).waitFor();
  await zoe.waitForFunction((n) => window.carcassonne.conn.player?.name === n, NAME);
  const zoeId = (await me(zoe)).account.id;
  if (zoeId !== guest.account.id) throw new Error('claiming a name changed the player id');
  await checkPhoneSizes(zoe, 'the lobby of a named player');
  step(`the guest claimed "${NAME}"`);

  // ---- A rated duel against a random bot, resigned at once.
  await zoe.fill('#bot-count', '1');
  await zoe.selectOption('#bot-level', 'random');
  await zoe.fill('#bot-pause', '0');
  await zoe.click('#create');
  await zoe.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(zoe.url()).hash.replace(/^#room=/, '');
  await zoe.locator('.seats li[data-seat="0"]', { hasText: NAME }).waitFor();
  await zoe.click('[data-action=start]:not([disabled])');
  await zoe.click('#sheet-toggle');  // on the phone, resigning is in the sheet
  await zoe.locator('#resign').click();
  await zoe.waitForFunction(() => window.carcassonne.conn.view?.game?.status === 'finished', null, { timeout: 30000 });
  // The fairness line is within reach on the phone: in the game's sheet (open at the end).
  await zoe.locator('.side #fairness[data-fairness=verified]').waitFor();
  await zoe.locator('#fairness').scrollIntoViewIfNeeded();
  const fair = await zoe.locator('#fairness').boundingBox();
  if (!fair || fair.y < 0 || fair.y + fair.height > 844) throw new Error(`the fairness line on the phone: ${JSON.stringify(fair)}`);
  step(`room ${room}: started and resigned; the fairness line verified in the phone's sheet`);

  // ---- My games: one duel, provisional; the game with its result, replay and record.
  await zoe.click('#to-lobby');
  await zoe.click('#my-games');
  await zoe.locator(`#profile[data-player="${zoeId}"] #profile-name`, { hasText: NAME }).waitFor();
  const duel = zoe.locator('#ratings tr[data-pool=duel]');
  await duel.waitFor();
  if ((await duel.locator('.games').textContent()) !== '1') throw new Error(`duel games: ${await duel.textContent()}`);
  if (!(await duel.locator('.provisional-mark').count())) throw new Error(`the duel rating is not marked provisional: ${await duel.textContent()}`);
  if (!/^\d{3,4}/.test(await duel.locator('.rating').textContent())) throw new Error(`the duel rating: ${await duel.textContent()}`);
  const game = zoe.locator(`.game-item[data-room="${room}"]`);
  await game.waitFor();
  if ((await zoe.locator('.game-item').count()) !== 1) throw new Error('the profile lists more than one game');
  // Lost; a draw where the server counts the bot out too (a game left with bots alone ends).
  const listed = await zoe.evaluate((id) => fetch(`/api/players/${id}/games`).then((r) => r.json()), zoeId);
  const expected = listed.games[0]?.seats[1]?.forfeited ? 'draw' : 'lost';
  if ((await game.locator('.result').textContent()) !== expected) throw new Error(`the result: ${await game.textContent()}, not ${expected}: ${JSON.stringify(listed)}`);
  const recordPath = await game.locator('[data-action=record]').getAttribute('href');
  const record = await zoe.evaluate((p) => fetch(p).then((r) => r.json()), recordPath);
  if (record.setup.players[0].player !== zoeId) throw new Error(`the record's seats: ${JSON.stringify(record.setup.players)}`);
  await checkPhoneSizes(zoe, 'the profile');
  await shot('02-profile');
  await game.locator('[data-action=replay]').click();
  await zoe.locator('table.final').waitFor();
  step(`the profile: one duel, provisional, the game (${expected}) with its record (${recordPath}) and replay`);

  // ---- The duel leaderboard: Zoe and the bot.
  await zoe.goto(`${base}/#leaderboard=duel`);
  const row = (id) => zoe.locator(`#leaderboard[data-pool=duel] tbody tr[data-player="${id}"]`);
  await row(zoeId).waitFor();
  await row('bot-random').waitFor();
  if (!(await row(zoeId).textContent()).includes(NAME)) throw new Error(`Zoe's row: ${await row(zoeId).textContent()}`);
  if ((await row(zoeId).textContent()).includes('(bot)')) throw new Error(`Zoe's row is marked a bot's: ${await row(zoeId).textContent()}`);
  if (!(await row('bot-random').textContent()).includes('(bot)')) throw new Error(`the bot's row: ${await row('bot-random').textContent()}`);
  await checkPhoneSizes(zoe, 'the leaderboard');
  await shot('03-leaderboard');
  await row(zoeId).locator('a').click();
  await zoe.locator(`#profile[data-player="${zoeId}"]`).waitFor();
  step('the duel leaderboard lists Zoe and the random bot (marked a bot), her name links to her profile');

  // ---- Sign out (a new guest), a wrong password, and in again by name.
  await zoe.goto(`${base}/#`);
  await zoe.click('#sign-out');
  await zoe.locator('#account-name', { hasText: /^Guest/ }).waitFor();
  await zoe.waitForFunction(() => window.carcassonne.conn.player?.guest === true);
  const other = await me(zoe);
  if (other.account.id === zoeId || other.socket.id !== other.account.id) throw new Error(`after signing out: ${JSON.stringify(other)}`);
  await zoe.click('#account-forms summary');
  await zoe.fill('#sign-in-name', NAME);
  await zoe.fill('#sign-in-password', 'not her password');
  await provoke(async () => {
    await zoe.click('#sign-in-submit');
    await zoe.locator('#account-error', { hasText: /\S/ }).waitFor();
  });
  await zoe.fill('#sign-in-password', PASSWORD);
  await zoe.click('#sign-in-submit');
  await zoe.locator('#account-name', { hasText: NAME }).waitFor();
  await zoe.waitForFunction((id) => window.carcassonne.conn.player?.id === id, zoeId);
  await shot('04-signed-in-again');
  step('signed out (a new guest), a wrong password refused, signed in again by name');

  // ---- A new password (the old one asked), then the account deleted: a guest again, and the
  // name signs in no more.
  const NEW_PASSWORD = 'roads and cloisters';
  await zoe.click('#account-settings summary');
  await zoe.fill('#old-password', 'not her password');
  await zoe.fill('#new-password', NEW_PASSWORD);
  await provoke(async () => {
    await zoe.click('#change-password');
    await zoe.locator('#account-error', { hasText: /\S/ }).waitFor();
  });
  await zoe.fill('#old-password', PASSWORD);
  await zoe.fill('#new-password', NEW_PASSWORD);
  await zoe.click('#change-password');
  await zoe.locator('#password-changed', { hasText: /changed/ }).waitFor();
  await checkPhoneSizes(zoe, 'the account settings');
  const signIn = (password) => zoe.evaluate(([n, pw]) => fetch('/api/sign-in', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: n, password: pw }) }).then((r) => r.status), [NAME, password]);
  if (await signIn(NEW_PASSWORD) !== 200) throw new Error('the new password does not sign in');
  await zoe.click('#delete-account');
  await zoe.locator('#delete-account', { hasText: /again/ }).waitFor();
  await zoe.click('#delete-account');
  await zoe.locator('#account-name', { hasText: /^Guest/ }).waitFor();
  await zoe.waitForFunction(() => window.carcassonne.conn.player?.guest === true);
  await provoke(async () => {
    if (await signIn(NEW_PASSWORD) !== 401) throw new Error('the deleted account still signs in');
  });
  step('a new password (a wrong old one refused), then the account deleted: a guest again');
}

t.run(main);
