#!/usr/bin/env node
// Browser check of the match bar (server/web/js/clocks.js), in Debian's Chromium driven by
// playwright-core, against `carcassonne serve --allow-scripted true`:
//
//   node tests/web/match_web_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// Ann creates a room with a Fischer clock from the lobby form, Bob joins, Ann starts: both pages
// show both clocks, Ann's running and counting down. Ann takes a placement back with Bob's
// consent (both logs tell it and strike the placement out). Bob resigns (confirming the dialog): the
// two-seat game ends (in Bob's turn: at once). Ann offers a rematch, Bob accepts: both pages go to the new room by
// themselves, its game running with the same clock. Exit 0 on success, 1 with a message.
import { join } from 'node:path';
import { playAs, webTest } from './harness.mjs';

const t = webTest('match_web_test');
const { base, artifacts, step } = t;
const open = (who) => t.open(who, { acceptDialogs: true });  // the resign confirmation

async function main() {
  const ann = await open('ann'), bob = await open('bob');
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
  for (const p of [ann, bob]) {
    await p.locator('.match-clock').nth(1).waitFor();
    await p.locator('.match-clock.running[data-seat="0"]').waitFor();
  }
  const first = await ann.locator('.match-clock.running .time').textContent();
  await ann.waitForFunction((t) => document.querySelector('.match-clock.running .time').textContent !== t, first);
  await shot(ann, '01-clocks');
  step(`both clocks shown, Ann's running (${first} and counting)`);

  // Ann places her tile (the moves through the page's connection: clicking is web_test.mjs's
  // business) and asks to take it back; Bob allows it: both logs say so and strike the placement
  // out. Then she plays her turn; Bob's clock runs, and Bob resigns in his own turn.
  const place = () => ann.evaluate(() => window.carcassonne.conn.request({ type: 'move', move: { type: 'place_tile', x: 0, y: -1, rotation: 180 } }));
  await place();
  await ann.click('#undo');
  await bob.locator('.log li', { hasText: 'Ann asks to take back their last move.' }).waitFor();
  await bob.click('#undo-accept');
  for (const p of [ann, bob]) {
    await p.locator('.log li.undo', { hasText: 'Ann took back their last move.' }).waitFor();
    await p.locator('.log li.taken-back', { hasText: 'Ann placed' }).waitFor();
  }
  await shot(bob, '01b-taken-back');
  step('a take-back: asked, allowed, and struck out in both logs');
  await place();
  await ann.evaluate(() => window.carcassonne.conn.request({ type: 'move', move: { type: 'pass' } }));
  await bob.locator('.match-clock.running[data-seat="1"]').waitFor();
  const annLeft = await bob.locator('.match-clock[data-seat="0"] .time').textContent();
  // 10 min + 5 s less her time, the take-back's included (its request does not stop her clock).
  if (!/^(10:0\d|9:[3-5]\d)$/.test(annLeft)) throw new Error(`Ann's clock after her turn: ${annLeft} (10 min + 5 s less her time)`);
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
    await p.locator('.match-clock.running').waitFor();
  }
  const next = new URL(ann.url()).hash.replace(/^#room=/, '');
  if (next !== new URL(bob.url()).hash.replace(/^#room=/, '')) throw new Error('Ann and Bob are in different rooms');
  const seats = await bob.evaluate(() => [window.carcassonne.conn.seat, window.carcassonne.conn.view.game.status]);
  if (JSON.stringify(seats) !== '[1,"playing"]') throw new Error(`Bob in the rematch: ${JSON.stringify(seats)}`);
  await shot(bob, '02-rematch');
  step(`rematch in room ${next}, both seated`);
}

t.run(main);
