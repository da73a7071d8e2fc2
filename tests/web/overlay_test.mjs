#!/usr/bin/env node
// Browser test of the overlay for streaming software (server/web/overlay.html, js/overlay.js,
// docs/web.md "Overlay") and the lobby's featured games, in Debian's Chromium driven by
// playwright-core, run by run_web_test.sh like web_test.mjs:
//
//   node tests/web/overlay_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// Ann creates a room of two bots and watches it; the overlay (layout full) follows the game
// through the room's event stream: a transparent page with the board, each seat's name, score
// and clock, and the last move. Eve's lobby features the game with its spectators (Ann and the
// overlay). The layout `scores` shows no board, `board` only the board. At the end the
// overlay's scores are those of Ann's page. Exit 0 on success, 1 with a message on failure.
import { join } from 'node:path';
import { playAs, webTest } from './harness.mjs';

const t = webTest('overlay_test');
const { base, artifacts, step } = t;
const open = (who) => t.open(who, { consoleErrors: true });

async function main() {
  const ann = await open('ann');
  const eve = await open('eve');
  const full = await open('overlay');
  const scores = await open('overlay-scores');

  // ---- A bots-only game, slow enough to watch.
  await ann.goto(base);
  await playAs(ann, 'Ann');
  // Bots that pause 150 ms (the form's step is half a second): a game of a few seconds.
  const room = await ann.evaluate(async () => {
    const r = await window.carcassonne.conn.request({ type: 'create_room', name: 'Final', seats: 2, public: true, bots: ['random', 'random'], bot_pause_ms: 150, match: { clock: 'fischer', initial_s: 600, increment_s: 5 } });
    return r.room;
  });
  await ann.goto(`${base}/#room=${room}`);
  await ann.getByText('You are watching this room.').waitFor();

  // Before the start the overlay says what it waits for.
  await full.goto(`${base}/overlay.html?room=${room}&layout=full&scale=1.5`);
  await full.getByText('waiting for the game to start').waitFor();
  const started = await ann.evaluate(() => window.carcassonne.conn.request({ type: 'start' }).then((r) => r.type));
  if (started !== 'started') throw new Error(`start: ${started}`);
  step(`room ${room} started, the overlay open`);

  // ---- The overlay follows the game: board, names and scores, the last move.
  await full.waitForFunction(() => document.querySelectorAll('#overlay .layer-tiles .placed').length >= 4);
  const seats = await full.$$eval('#overlay .strip-seat', (ns) => ns.map((n) => n.textContent));
  if (seats.length !== 2 || !seats.every((s) => /Random bot/.test(s))) throw new Error(`the overlay's seats: ${JSON.stringify(seats)}`);
  await full.waitForFunction(() => document.querySelector('#overlay .overlay-last')?.textContent.length > 0);
  // Each seat's clock (Fischer, 10 minutes and 5 s a move): shown, one of them running.
  const clocks = await full.$$eval('#overlay .strip-seat .time', (ns) => ns.map((n) => n.textContent));
  if (clocks.length !== 2 || !clocks.every((c) => /^1?\d:[0-5]\d$/.test(c))) throw new Error(`the overlay's clocks: ${JSON.stringify(clocks)}`);
  await full.locator('#overlay .strip-seat[data-running="true"]').first().waitFor();
  const look = await full.evaluate(() => ({
    html: getComputedStyle(document.documentElement).backgroundColor,
    body: getComputedStyle(document.body).backgroundColor,
    board: getComputedStyle(document.querySelector('#overlay .board-wrap')).backgroundColor,
    zoom: getComputedStyle(document.querySelector('#overlay .zoom')).display,
    font: getComputedStyle(document.body).fontSize,
  }));
  for (const k of ['html', 'body', 'board'])
    if (look[k] !== 'rgba(0, 0, 0, 0)') throw new Error(`the overlay's ${k} is not transparent: ${look[k]}`);
  if (look.zoom !== 'none') throw new Error('the overlay shows zoom buttons');
  if (look.font !== '24px') throw new Error(`scale=1.5 should make the text 24px, not ${look.font}`);
  await full.screenshot({ path: join(artifacts, 'overlay-01-full.png'), omitBackground: true });
  step('the overlay shows the board, the seats and the last move on a transparent page');

  // ---- Eve's lobby features the game, with its spectators: Ann and the overlay.
  await eve.goto(base);
  await eve.locator(`#featured li[data-room="${room}"]`, { hasText: '2 watching' }).waitFor();
  const href = await eve.locator(`#featured li[data-room="${room}"] a`).getAttribute('href');
  if (href !== `/overlay.html?room=${room}`) throw new Error(`the featured game's overlay link: ${href}`);
  await eve.screenshot({ path: join(artifacts, 'overlay-02-featured.png') });
  step('the lobby features the game with 2 watching');

  await scores.goto(`${base}/overlay.html?room=${room}&layout=scores`);
  await scores.locator('#overlay .strip-seat').nth(1).waitFor();
  if (await scores.locator('#overlay .board').count() !== 0) throw new Error('layout=scores shows a board');
  const boardOnly = await open('overlay-board');
  await boardOnly.goto(`${base}/overlay.html?room=${room}&layout=board`);
  await boardOnly.waitForFunction(() => document.querySelectorAll('#overlay .layer-tiles .placed').length >= 1);
  if (await boardOnly.locator('#overlay .strip-seat').count() !== 0) throw new Error('layout=board shows the scores');
  step('layouts scores and board');

  // ---- The end: the overlay's scores are the page's.
  await ann.locator('table.final').waitFor({ timeout: 120000 });
  await full.getByText('Final scores').waitFor();
  const shown = await ann.$$eval('table.final td.final-score', (cs) => cs.map((c) => [Number(c.dataset.seat), Number(c.textContent)]).sort((a, b) => a[0] - b[0]).map(([, s]) => s));
  const overlay = await full.$$eval('#overlay .strip-score', (ns) => ns.map((n) => Number(n.dataset.score)));
  if (JSON.stringify(shown) !== JSON.stringify(overlay)) throw new Error(`final scores: the page ${JSON.stringify(shown)}, the overlay ${JSON.stringify(overlay)}`);
  await full.screenshot({ path: join(artifacts, 'overlay-03-final.png'), omitBackground: true });
  step(`the overlay ends with the page's scores ${JSON.stringify(overlay)}`);
}

t.run(main);
