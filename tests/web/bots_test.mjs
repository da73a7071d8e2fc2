#!/usr/bin/env node
// Browser test of the page's bots (server/web/js/bots.js), in Debian's Chromium driven by
// playwright-core, run by run_web_test.sh like web_test.mjs:
//
//   node tests/web/bots_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// Two rated ladder games (`carcassonne ladder`) first: the form's level chooser shows the two
// levels' ratings. Ann creates a 3-seat room with a greedy bot from the lobby form and sits; the waiting room
// marks the bot; she adds a random bot and removes the greedy one with the buttons. Then she
// creates a room of two bots only: she watches it, starts it from the waiting room, and the
// game plays to the end by itself; the bots are marked in the players panel, Eve sees the room
// in the lobby with its bots, and the final scores shown are those of `carcassonne replay` on
// the game's record; the lobby's Finished filter lists the game with its replay. Then a whole
// game with all five expansions on a phone against a bot, its labels checked at every decision.
// Exit 0 on success, 1 with a message on failure.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { labelProblems, playAs, webTest } from './harness.mjs';

const t = webTest('bots_test');
const { base, binary, artifacts, step } = t;
const open = (who) => t.open(who, { consoleErrors: true });

async function main() {
  const ann = await open('ann');
  const eve = await open('eve');
  const shot = (page, name) => page.screenshot({ path: join(artifacts, `bots-${name}.png`) });

  // ---- The ladder's ratings in the chooser: `carcassonne ladder` plays two rated games of
  // beginner against casual on this server, and the form shows each level's rating as
  // GET /api/bots gives it (levels without a rated game show none).
  const ladder = JSON.parse(execFileSync(binary, ['ladder', '--port', new URL(base).port, '--games', '2', '--levels', 'beginner,casual'], { encoding: 'utf8' }));
  const rated = Object.fromEntries(ladder.levels.map((l) => [l.level, `${Math.round(l.rating)}${l.deviation > 110 ? '?' : ''}`]));
  await ann.goto(base);
  for (const level of ['beginner', 'casual']) {
    await ann.locator(`#bot-level option[value=${level}][data-rating="${rated[level]}"]`, { hasText: `${level} (rated ${rated[level]})` }).waitFor({ state: 'attached' });
  }
  if (await ann.locator('#bot-level option[value=expert][data-rating]').count() !== 0) throw new Error('expert shows a rating it has not got');
  step(`the chooser shows the ladder's ratings: beginner ${rated.beginner}, casual ${rated.casual}`);

  // ---- A room with a bot, made from the form; bots added and removed in the waiting room.
  await playAs(ann, 'Ann');
  await ann.selectOption('#seats', '3');
  await ann.fill('#bot-count', '1');
  await ann.selectOption('#bot-level', 'greedy');
  await ann.click('#create');
  await ann.waitForFunction(() => /room=/.test(location.hash));
  await ann.locator('.seats li[data-seat="2"] .bot-mark[data-bot="greedy"]').waitFor();
  await ann.locator('.seats li[data-seat="0"]', { hasText: 'Ann' }).waitFor();
  await ann.selectOption('#add-bot-level', 'random');
  await ann.click('[data-action=add-bot]');
  await ann.locator('.seats li[data-seat="1"] .bot-mark[data-bot="random"]').waitFor();
  await shot(ann, '01-waiting-room');
  await ann.click('[data-action=remove-bot][data-seat="2"]');
  await ann.locator('.seats li[data-seat="2"]', { hasText: 'free' }).waitFor();
  step('bots added from the form and the waiting room, and removed');

  // ---- A bots-only room: Ann watches, starts it, and it plays to the end by itself.
  await ann.goto(`${base}/#`);
  await ann.locator('#create').waitFor();
  await ann.fill('#room-name', 'Bots only');
  await ann.selectOption('#seats', '2');
  await ann.fill('#bot-count', '2');
  await ann.selectOption('#bot-level', 'random');
  await ann.fill('#bot-pause', '0');
  await ann.click('#create');
  await ann.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(ann.url()).hash.replace(/^#room=/, '');
  await ann.getByText('You are watching this room.').waitFor();
  await ann.locator('.seats .bot-mark').nth(1).waitFor();
  await eve.goto(base);
  await eve.locator(`tr[data-room="${room}"] .bot-mark`, { hasText: '2 bots' }).waitFor();
  await ann.click('[data-action=start]:not([disabled])');
  await ann.locator('.players .bot-mark').first().waitFor();
  step(`bots-only room ${room} started`);
  await ann.locator('table.final').waitFor({ timeout: 120000 });
  await shot(ann, '02-bots-game-over');
  await readableTiles(ann, 63, 'the desktop at the end of the bots\' game');
  const rows = await ann.$$eval('table.final td.final-score', (cs) => cs.map((c) => [Number(c.dataset.seat), Number(c.textContent)]));
  const shown = [];
  for (const [seat, score] of rows) shown[seat] = score;

  const record = await fetch(`${base}/api/rooms/${room}/record`).then((r) => r.json());
  const file = join(tmpdir(), `bots_test_record_${process.pid}.json`);
  writeFileSync(file, JSON.stringify(record));
  const replayed = JSON.parse(execFileSync(binary, ['replay', file], { encoding: 'utf8' }));
  if (replayed.status !== 'finished' || JSON.stringify(replayed.scores) !== JSON.stringify(shown))
    throw new Error(`the page shows ${JSON.stringify(shown)}, the record replays to ${JSON.stringify(replayed)}`);
  step(`the bots played ${record.moves.length} moves to ${JSON.stringify(shown)}, as the record replays`);

  // The finished game stays findable from the lobby: its Finished filter lists it, with its
  // replay (the room's page and its final scores).
  await eve.goto(`${base}/#`);
  await eve.click('#filter-finished');
  const listed = eve.locator(`#finished-games li[data-room="${room}"]`);
  await listed.waitFor();
  await listed.locator('[data-action=replay]').click();
  await eve.locator('table.final').waitFor();
  await eve.locator('#replay-open').waitFor();
  await shot(eve, '03-finished-from-lobby');
  step('the lobby\'s Finished filter lists the game, and its Replay opens the final scores');
}

// Late in a game the board, following the game, keeps its tiles readable (it pans rather than
// shrink them): at least `px` wide (⤢ still shows everything).
async function readableTiles(page, px, what) {
  await page.waitForTimeout(300);  // the last fit
  const [size, tiles] = await page.evaluate(() => [document.querySelector('.board .placed').getBoundingClientRect().width, document.querySelectorAll('.board .placed').length]);
  if (size < px) throw new Error(`${what}: ${tiles} tiles drawn ${size.toFixed(0)} px wide`);
  step(`${what}: ${tiles} tiles drawn ${size.toFixed(0)} px wide`);
}

// A whole seeded game with all five expansions, on a phone against the greedy bot: Pia chooses at
// random among what her page offers (a gift card, a circle with several moves, any move's
// button, folded lists included; the tile where it first fits, sent as the page would), and at
// every decision no two controls read the same for different moves.
async function wholeGame(seed) {
  const pia = await t.open('pia', { consoleErrors: true, phone: true });
  let rng = [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
  const random = () => { rng = (Math.imul(rng, 1664525) + 1013904223) >>> 0; return rng / 4294967296; };
  await pia.goto(base);
  await playAs(pia, 'Pia');
  await pia.fill('#bot-count', '1');
  await pia.selectOption('#bot-level', 'greedy');
  await pia.fill('#bot-pause', '0');
  for (const e of ['hills_and_sheep', 'gifts', 'peasant_revolts', 'easter', 'festival']) await pia.check(`#exp-${e}`);
  await pia.locator('#create-form details summary').click();
  await pia.fill('#scripted-setup', JSON.stringify({ seed }));
  await pia.click('#create');
  await pia.waitForFunction(() => /room=/.test(location.hash));
  await pia.click('[data-action=start]:not([disabled])');
  let decisions = 0, controls = 0;
  const check = async () => {
    const found = await labelProblems(pia);
    controls += found.n;
    if (found.out.length) {
      await pia.screenshot({ path: join(artifacts, 'failure-labels.png') });
      throw new Error(`${seed}: controls that read the same: ${found.out.join('; ')}`);
    }
  };
  for (;;) {
    await pia.waitForFunction(() => document.querySelector('.actions[data-decision]') || window.carcassonne.conn.view?.game?.status === 'finished', null, { timeout: 60000 });
    if (await pia.evaluate(() => window.carcassonne.conn.view.game.status === 'finished')) break;
    decisions++;
    await check();
    const before = await pia.evaluate(() => window.carcassonne.conn.seq);
    const r = [random(), random()];
    const done = await pia.evaluate(async ([a, b]) => {
      const pick = (list) => list[Math.floor(b * list.length)];
      const bar = document.querySelector('.actions[data-decision]');
      const gifts = [...bar.querySelectorAll('button[data-action=open_gift]')];
      const group = [...document.querySelectorAll('.layer-markers .marker:not(.marker-cluster)')].filter((m) => Number(m.dataset.count) > 1 && !m.classList.contains('selected'));
      if (gifts.length && a < 0.5) { pick(gifts).click(); return 'gift'; }
      if (group.length && a < 0.6) { pick(group).dispatchEvent(new MouseEvent('click', { bubbles: true })); return 'circle'; }
      const moves = [...bar.querySelectorAll('button[data-move]')];
      if (moves.some((m) => m.disabled)) return 'wait';  // the last move is still on its way
      if (moves.length) { pick(moves).click(); return 'move'; }
      const place = window.carcassonne.conn.view.game.legal_moves.find((m) => m.type === 'place_tile');
      await window.carcassonne.conn.move(place);
      return 'placed';
    }, r);
    if (done === 'wait') { await pia.waitForTimeout(30); continue; }
    if (done === 'gift' || done === 'circle') {
      // The card's targets, or the circle's moves first and the full list opened: checked next.
      await pia.evaluate(() => { for (const d of document.querySelectorAll('.actions details.all-choices')) d.open = true; });
      await check();
      continue;
    }
    await pia.waitForFunction((s) => window.carcassonne.conn.seq > s, before, { timeout: 60000 });
  }
  await pia.locator('table.final').waitFor();
  await readableTiles(pia, 47, `${seed}: the phone at the end`);
  await pia.screenshot({ path: join(artifacts, 'bots-04-whole-game-phone.png') });
  step(`${seed}: a whole game with all five expansions on a phone against the greedy bot, ${decisions} decisions, ${controls} labels, none alike for different moves`);
}

t.run(async () => { await main(); await wholeGame('bots-labels-1'); });
