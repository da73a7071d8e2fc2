#!/usr/bin/env node
// Browser check of the match bar (server/web/js/clocks.js), in Debian's Chromium driven by
// playwright-core, against `carcassonne serve --allow-scripted true`:
//
//   node tests/web/match_web_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// Ann (desktop) creates a room with a Fischer clock from the lobby form, Bob joins on a phone,
// Ann starts: both pages show both clocks, Ann's running and counting down (on the phone in the
// strip above the board, with the scores, whose turn and the decision all in the screen without
// scrolling). No Undo at the start of a turn. Ann takes a placement back with Bob's consent: the
// request and Allow are in both screens, both logs tell it and strike the placement out. Bob resigns (confirming the dialog): the
// two-seat game ends (in Bob's turn: at once). Ann offers a rematch, Bob accepts: both pages go to the new room by
// themselves, its game running with the same clock. Exit 0 on success, 1 with a message.
import { join } from 'node:path';
import { playAs, webTest } from './harness.mjs';

const t = webTest('match_web_test');
const { base, artifacts, step } = t;
const open = (who, phone = false) => t.open(who, { acceptDialogs: true, phone });  // the resign confirmation

// Each selector's element lies wholly inside the viewport and is the one a tap at its middle
// reaches (nothing covers it): what a player sees without scrolling.
async function inView(page, selectors, what) {
  const bad = await page.evaluate((list) => list.flatMap((sel) => {
    const n = [...document.querySelectorAll(sel)].find((x) => x.checkVisibility());
    if (!n) return [`${sel}: not shown`];
    const r = n.getBoundingClientRect();
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) return [`${sel}: at ${r.left.toFixed(0)},${r.top.toFixed(0)}–${r.right.toFixed(0)},${r.bottom.toFixed(0)} in ${innerWidth}x${innerHeight}`];
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return hit && (n.contains(hit) || hit.contains(n)) ? [] : [`${sel}: covered by ${hit?.outerHTML.slice(0, 60)}`];
  }), selectors);
  if (bad.length) {
    await page.screenshot({ path: join(artifacts, 'failure-in-view.png') });
    throw new Error(`${what}: ${bad.join('; ')}`);
  }
}

async function main() {
  const ann = await open('ann'), bob = await open('bob', true);
  const shot = (page, name) => page.screenshot({ path: join(artifacts, `match-${name}.png`) });

  await ann.goto(base);
  await playAs(ann, 'Ann');
  await ann.selectOption('#match-clock', 'fischer');
  await ann.fill('#match-minutes', '10');
  await ann.fill('#match-increment', '5');
  await ann.locator('#create-form details summary').click();
  await ann.fill('#scripted-setup', JSON.stringify({ seed: 'match-web', script: { deck: ['BA/C', 'BA/RFr', 'BA/L'] } }));
  await ann.click('#create');
  await ann.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(ann.url()).hash.replace(/^#room=/, '');
  const listed = await fetch(`${base}/api/rooms`).then((r) => r.json());
  const mine = listed.rooms.find((r) => r.id === room);
  if (mine?.match?.clock !== 'fischer' || mine.match.initial_s !== 600) throw new Error(`lobby: ${JSON.stringify(mine)}`);
  await bob.goto(`${base}/#room=${room}`);
  await playAs(bob, 'Bob');
  await bob.click('[data-action=join]');
  await ann.locator('.seats li', { hasText: 'Bob' }).waitFor();
  await ann.click('[data-action=start]:not([disabled])');
  await ann.locator('.match-clock').nth(1).waitFor();
  await ann.locator('.match-clock.running[data-seat="0"]').waitFor();
  await bob.locator('.strip-seat[data-seat="1"] .time').waitFor();
  await bob.locator('.strip-seat.active.to-act[data-running="true"][data-seat="0"]').waitFor();
  for (const [p, sel] of [[ann, '.match-clock.running .time'], [bob, '.strip-seat[data-running="true"] .time']]) {
    const first = await p.locator(sel).textContent();
    await p.waitForFunction(([s, t]) => document.querySelector(s).textContent !== t, [sel, first]);
  }
  await inView(bob, ['.strip-seat[data-seat="0"] .strip-score', '.strip-seat[data-seat="1"] .strip-score', '.strip-seat[data-seat="0"] .time',
    '.strip-seat[data-seat="1"] .time', '.strip-seat.active', '.actions .prompt', '#sheet-toggle'], 'the phone at the start');
  if (await ann.locator('#undo').count()) throw new Error('Undo is offered before Ann has moved');
  await shot(ann, '01-clocks');
  await shot(bob, '01-clocks-phone');
  step('both clocks shown and counting, Ann\'s running; on the phone the strip and the decision in the screen');

  // Ann places her tile (the moves through the page's connection: clicking is web_test.mjs's
  // business) and asks to take it back; Bob allows it: both logs say so and strike the placement
  // out. Then she plays her turn; Bob's clock runs, and Bob resigns in his own turn.
  const place = () => ann.evaluate(() => window.carcassonne.conn.request({ type: 'move', move: { type: 'place_tile', x: 0, y: -1, rotation: 180 } }));
  await place();
  await ann.click('#undo');
  await bob.locator('#undo-request.asked').waitFor();
  await inView(bob, ['#undo-request', '#undo-accept', '#undo-refuse', '.actions .prompt', '.strip-seat.active', '.strip-seat[data-seat="0"] .time'], 'the phone asked to allow a take-back');
  await ann.locator('#undo-request', { hasText: 'waiting for Bob' }).waitFor();
  await inView(ann, ['#undo-request', '.match-clock.running'], 'the desktop waiting for an answer');
  await shot(bob, '01a-undo-request-phone');
  await shot(ann, '01a-undo-request');
  await bob.click('#undo-accept');
  await bob.click('#sheet-toggle');
  for (const p of [ann, bob]) {
    await p.locator('.log li.undo', { hasText: 'Ann took back their last move.' }).waitFor();
    await p.locator('.log li.taken-back', { hasText: 'Ann placed' }).locator('.taken-back-mark', { hasText: 'taken back' }).waitFor();
  }
  if (await ann.locator('#undo').count()) throw new Error('Undo is offered again once the move is taken back');
  await bob.locator('.log li', { hasText: 'Ann asks to take back their last move.' }).waitFor();
  await shot(bob, '01b-taken-back');
  await bob.click('#sheet-close');
  step('a take-back: asked, allowed, and struck out in both logs');
  await place();
  await ann.evaluate(() => window.carcassonne.conn.request({ type: 'move', move: { type: 'pass' } }));
  await bob.locator('.strip-seat[data-running="true"][data-seat="1"]').waitFor();
  const annLeft = await bob.locator('.strip-seat[data-seat="0"] .time').textContent();
  // 10 min + 5 s less her time, the take-back's included (its request does not stop her clock).
  if (!/^(10:0\d|9:[3-5]\d)$/.test(annLeft)) throw new Error(`Ann's clock after her turn: ${annLeft} (10 min + 5 s less her time)`);
  await bob.click('#sheet-toggle');
  await bob.click('#resign');
  for (const p of [ann, bob]) await p.waitForFunction(() => window.carcassonne.conn.view?.game?.status === 'finished');
  const forfeited = await ann.evaluate(() => window.carcassonne.conn.view.game.forfeited);
  if (JSON.stringify(forfeited) !== '[1]') throw new Error(`forfeited: ${JSON.stringify(forfeited)}`);
  await ann.locator('.log li', { hasText: 'Bob resigned.' }).waitFor();
  step('Bob resigned: the game is over');

  await ann.click('#rematch');
  await bob.locator('#rematch-accept').click();
  for (const p of [ann, bob]) {
    await p.waitForFunction((old) => !location.hash.includes(old), room);
    await p.locator(p === bob ? '.strip-seat[data-running="true"]' : '.match-clock.running').waitFor();
  }
  const next = new URL(ann.url()).hash.replace(/^#room=/, '');
  if (next !== new URL(bob.url()).hash.replace(/^#room=/, '')) throw new Error('Ann and Bob are in different rooms');
  const seats = await bob.evaluate(() => [window.carcassonne.conn.seat, window.carcassonne.conn.view.game.status]);
  if (JSON.stringify(seats) !== '[1,"playing"]') throw new Error(`Bob in the rematch: ${JSON.stringify(seats)}`);
  await shot(bob, '02-rematch');
  step(`rematch in room ${next}, both seated`);
}

t.run(main);
