#!/usr/bin/env node
// Browser end-to-end test of the web page (server/web/), in Debian's Chromium driven by
// playwright-core:
//
//   node tests/web/web_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// against `carcassonne serve --allow-scripted true`. Three browser contexts (each its own
// localStorage): Ann creates a room with a scripted deck from the lobby form, Bob opens the
// room's link and joins, Eve opens the same link on a phone-sized screen and watches. They play
// the whole game by clicking: squares, the rotate button, Place, the figure markers, Pass. Bob
// reloads his page in the middle of the game and must be back in his seat (the token kept in
// localStorage, `resume`). At the end the final scores shown on all three pages must equal
// those of `carcassonne replay` on the same moves. Screenshots go to ARTIFACTS_DIR.
// Exit 0 on success, 1 with a message on failure.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const [base, binary, artifacts] = process.argv.slice(2);
if (!base || !binary || !artifacts) {
  console.error('usage: web_test.mjs BASE_URL CARCASSONNE_BINARY ARTIFACTS_DIR');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const started = Date.now();
const step = (text) => console.log(`web_test: ${((Date.now() - started) / 1000).toFixed(1)} s: ${text}`);
const TIMEOUT = 15000;

// The game: the start tile BA/RCr (city north, road west-east) and four scripted tiles.
// Ann closes a city with her follower on it (4 points), Bob takes the road, Ann a monastery,
// Bob passes; final scoring counts the road and the monastery.
const deck = ['BA/C', 'BA/RFr', 'BA/L', 'BA/C'];
const plan = [
  { seat: 0, type: 'place_tile', x: 0, y: -1, rotation: 180 },
  { seat: 0, type: 'deploy', figure: 'meeple', x: 0, y: -1, feature: 'city0' },
  { seat: 1, type: 'place_tile', x: 1, y: 0, rotation: 0 },
  { seat: 1, type: 'deploy', figure: 'meeple', x: 1, y: 0, feature: 'road0' },
  { seat: 0, type: 'place_tile', x: 0, y: 1, rotation: 0 },
  { seat: 0, type: 'deploy', figure: 'meeple', x: 0, y: 1, feature: 'monastery0' },
  { seat: 1, type: 'place_tile', x: 1, y: -1, rotation: 0 },
  { seat: 1, type: 'pass' },
];

// The expected scores: the engine's own, from the same record.
function expectedScores() {
  const record = { format: 'carcassonne-record/1', setup: { players: [{ name: 'Ann' }, { name: 'Bob' }], script: { deck } }, moves: plan };
  const file = join(tmpdir(), `web_test_record_${process.pid}.json`);
  writeFileSync(file, JSON.stringify(record));
  const state = JSON.parse(execFileSync(binary, ['replay', file], { encoding: 'utf8' }));
  if (state.status !== 'finished') throw new Error(`the plan does not finish the game: ${JSON.stringify(state)}`);
  return state.scores;
}

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

let browser;
async function main() {
  const expected = expectedScores();
  step(`expected final scores ${JSON.stringify(expected)}`);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: FLAGS });
  const desktop = { viewport: { width: 1280, height: 800 } };
  const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
  const pages = {};
  const errors = [];
  for (const [name, options] of [['ann', desktop], ['bob', desktop], ['eve', phone]]) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${name} console: ${m.text()}`); });
    pages[name] = page;
  }
  const { ann, bob, eve } = pages;
  const shot = (page, name) => page.screenshot({ path: join(artifacts, `${name}.png`) });

  // ---- Ann creates the room from the lobby form.
  await ann.goto(base);
  await ann.fill('#player-name', 'Ann');
  await ann.locator('details summary').click();
  await ann.fill('#scripted-setup', JSON.stringify({ seed: 'web-test', script: { deck } }));
  await ann.fill('#room-name', 'Web test');
  await shot(ann, '01-lobby');
  await ann.click('#create');
  await ann.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(ann.url()).hash.replace(/^#room=/, '');
  step(`room ${room} created`);

  // ---- Bob opens the link and joins; Eve opens it and watches.
  await bob.goto(`${base}/#room=${room}`);
  await bob.fill('#join-name', 'Bob');
  await bob.click('[data-action=join]');
  await bob.locator('.seats li', { hasText: 'Bob' }).waitFor();
  await eve.goto(`${base}/#room=${room}`);
  await eve.getByText('You are watching this room.').waitFor();
  await ann.locator('.seats li', { hasText: 'Bob' }).waitFor();
  await shot(ann, '02-waiting-room');

  // The lobby lists the room (public by default).
  const listed = await fetch(`${base}/api/rooms`).then((r) => r.json());
  if (!listed.rooms.some((r) => r.id === room && r.players.join() === 'Ann,Bob')) throw new Error(`/api/rooms: ${JSON.stringify(listed)}`);

  await ann.click('[data-action=start]:not([disabled])');
  for (const p of [ann, bob, eve]) await p.locator('.board .placed').first().waitFor();
  step('game started');

  const byName = { 0: ann, 1: bob };
  const seqOf = (p) => p.evaluate(() => Number(document.getElementById('app').dataset.seq));
  for (let i = 0; i < plan.length; i++) {
    const move = plan[i];
    const page = byName[move.seat];
    const before = await seqOf(eve);
    await act(page, move);
    // Every page, the spectator's too, must see the change.
    for (const p of [ann, bob, eve]) await p.waitForFunction((s) => Number(document.getElementById('app').dataset.seq) > s, before);
    if (i === 0) await shot(eve, '04-spectator-phone');
    if (i === 3) {
      // Bob reloads: the page must take his seat back by itself (token in localStorage).
      await bob.reload();
      await bob.locator('.actions .prompt', { hasText: 'Ann is about to place a tile' }).waitFor();
      await bob.locator('.player', { hasText: 'Bob (you)' }).waitFor();
      step('Bob reloaded and is back in his seat');
    }
  }
  step('all moves played');

  for (const [name, p] of Object.entries(pages)) {
    await p.locator('table.final').waitFor();
    const shown = await p.$$eval('table.final tbody tr', (rows) => rows.map((r) => [Number(r.dataset.seat), Number(r.querySelector('.final-score').textContent)]));
    const scores = [];
    for (const [seat, score] of shown) scores[seat] = score;
    if (JSON.stringify(scores) !== JSON.stringify(expected)) throw new Error(`${name} shows final scores ${JSON.stringify(scores)}, expected ${JSON.stringify(expected)}`);
    const log = await p.locator('.log').textContent();
    // Bob reloaded and Eve may lag: Ann's log has seen every event.
    if (name === 'ann' && !/Ann completed a city for 4 points/.test(log)) throw new Error(`${name}'s log lacks the city: ${log}`);
    await shot(p, `06-final-${name}`);
  }
  step(`final scores ${JSON.stringify(expected)} shown on all three pages`);
  if (errors.length) throw new Error(`errors in the pages:\n${errors.join('\n')}`);
}

// One move of the plan, by clicking as a person would.
async function act(page, move) {
  switch (move.type) {
    case 'place_tile': {
      await page.click(`.legal-square[data-x="${move.x}"][data-y="${move.y}"]`);
      for (let turns = 0; turns < 4; turns++) {
        const r = await page.getAttribute('.layer-ghost .ghost', 'data-rotation');
        if (Number(r) === move.rotation) break;
        await page.click('[data-action=rotate-right]');
      }
      if (move.seat === 0 && move.x === 0 && move.y === -1) await page.screenshot({ path: join(artifacts, '03-placing.png') });
      await page.click('.actions button[data-action=place_tile]:not([disabled])');
      break;
    }
    case 'deploy':
      await page.locator(`.marker[data-key="deploy:${move.x}:${move.y}:${move.feature}"]`).waitFor();
      if (move.feature === 'road0') await page.screenshot({ path: join(artifacts, '05-figure-step.png') });
      await page.click(`.marker[data-key="deploy:${move.x}:${move.y}:${move.feature}"]`);
      break;
    case 'pass':
      await page.click('.actions button[data-action=pass]');
      break;
    default:
      throw new Error(`no way to click ${move.type}`);
  }
}

try {
  await main();
  console.log(`web_test: ok in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${artifacts}`);
  await browser?.close();
  process.exit(0);
} catch (e) {
  console.error(`web_test: FAIL: ${e.stack ?? e}`);
  try {
    for (const ctx of browser?.contexts() ?? []) for (const p of ctx.pages()) await p.screenshot({ path: join(artifacts, `failure-${ctx.pages().indexOf(p)}-${browser.contexts().indexOf(ctx)}.png`) });
  } catch { /* best effort */ }
  await browser?.close().catch(() => {});
  process.exit(1);
}
