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
// those of `carcassonne replay` on the same moves.
//
// Then Ann and Bob play game records of the expansions (RECORDS below) the same way, by
// clicking what the page offers for every decision: a shepherd and Grow/Gather, a protected
// follower, the protect decision, a Festival return, gift cards with and without a target,
// Take 2's choice, the bunny. Each room is created through the lobby form (expansions and
// options ticked, the script pasted). The scores shown must be the record's.
// Screenshots go to ARTIFACTS_DIR. Exit 0 on success, 1 with a message on failure.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { checkFrames, labelProblems, playAs, noGamesRoute } from './harness.mjs';

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

const here = dirname(fileURLToPath(import.meta.url));
const RECORDS = [
  'records/take2_protect.json',               // Gifts + Peasant Revolts: Take 2, choose_tile, protect
  '../records/ex06_shepherd.json',            // Hills & Sheep: the shepherd, Grow and Gather
  '../records/ex13_revolt.json',              // Peasant Revolts: a protected deploy, a revolt
  '../records/ex17_festival_return.json',     // Festival: a figure taken back
  '../records/ex11_road_sweeper.json',        // Gifts: a card opened on a target
  '../records/easter_variants_hig.json',      // Easter: the bunny's path
].map((f) => join(here, f));

// The engine's own result for a record: {status, scores}.
function replay(record) {
  const file = join(tmpdir(), `web_test_record_${process.pid}.json`);
  writeFileSync(file, JSON.stringify(record));
  return JSON.parse(execFileSync(binary, ['replay', file], { encoding: 'utf8' }));
}

function expectedScores() {
  const state = replay({ format: 'carcassonne-record/1', setup: { players: [{ name: 'Ann' }, { name: 'Bob' }], script: { deck } }, moves: plan });
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
  // Bob plays on a phone, Eve watches on one, and Pia and Bob play the records on phones.
  for (const [name, options] of [['ann', desktop], ['bob', phone], ['eve', phone], ['pia', phone]]) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error' && !noGamesRoute(m)) errors.push(`${name} console: ${m.text()}`); });
    checkFrames(page, name, errors);
    pages[name] = page;
  }
  const { ann, bob, eve, pia } = pages;
  delete pages.pia;  // not in the first game
  phones.add(bob); phones.add(pia);
  // Eve's system asks for reduced motion: her page must not animate.
  await eve.emulateMedia({ reducedMotion: 'reduce' });
  const shot = (page, name) => page.screenshot({ path: join(artifacts, `${name}.png`) });

  // ---- Ann creates the room from the lobby form.
  await ann.goto(base);
  await playAs(ann, 'Ann');
  await ann.locator('#create-form details summary').click();
  await ann.fill('#scripted-setup', JSON.stringify({ seed: 'web-test', script: { deck } }));
  await ann.fill('#room-name', 'Web test');
  await shot(ann, '01-lobby');
  await ann.click('#create');
  await ann.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(ann.url()).hash.replace(/^#room=/, '');
  step(`room ${room} created`);

  // ---- Bob opens the link and joins; Eve opens it and watches.
  await bob.goto(`${base}/#room=${room}`);
  await playAs(bob, 'Bob');
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
  const shotsAt = { 0: '03-placing', 3: '05-figure-step' };
  for (let i = 0; i < plan.length; i++) {
    const move = plan[i];
    const before = await seqOf(eve);
    await act(byName[move.seat], move, shotsAt[i]);
    // Every page, the spectator's too, must see the change.
    await played([ann, bob, eve], before);
    if (i === 0) {
      await shot(eve, '04-spectator-phone');
      if (await eve.locator('.fresh-tile, .fresh-figure').count()) throw new Error('the page animates under prefers-reduced-motion');
    }
    if (i === 1) {
      // Ann's city scored: the points float to her score, except under reduced motion (Eve);
      // Bob's turn shows in his tab's title and icon, not in Ann's.
      for (const [p, n] of [[ann, true], [bob, true], [eve, false]]) {
        const floated = Number(await p.evaluate(() => document.body.dataset.floated ?? 0));
        if ((floated > 0) !== n) throw new Error(`${floated} points floated on a page ${n ? 'with' : 'under reduced'} motion`);
      }
      const signals = await Promise.all([ann, bob].map((p) => p.evaluate(() => [document.title, document.querySelector('link[rel=icon]').dataset.turn])));
      if (!/^▶ Your turn/.test(signals[1][0]) || signals[1][1] !== 'true' || /Your turn/.test(signals[0][0]) || signals[0][1] === 'true')
        throw new Error(`the turn signals: ${JSON.stringify(signals)}`);
    }
    if (i === 3 || i === 4) {
      // The last move's pieces are marked: Bob's new follower, until the next tile.
      const marked = await eve.$$eval('.placed-figure.last-figure', (fs) => fs.map((f) => `${f.dataset.seat}:${f.dataset.feature}`));
      if (JSON.stringify(marked) !== (i === 3 ? '["1:road0"]' : '[]')) throw new Error(`after move ${i}, the figures marked as the last move: ${JSON.stringify(marked)}`);
      if ((await eve.locator('.last-tile').count()) !== 1) throw new Error('no last tile outlined');
    }
    if (i === 3) {
      // Bob reloads: the page must take his seat back by itself (token in localStorage).
      await bob.reload();
      await bob.locator('.actions .prompt', { hasText: 'Ann is about to place a tile' }).waitFor();
      await bob.locator('.strip-seat[data-seat="1"]', { hasText: 'You' }).waitFor();
      // The log is rebuilt from the server's history: what happened before the reload is told
      // (in the phone's sheet, opened and closed again).
      await bob.click('#sheet-toggle');
      await bob.locator('.player', { hasText: 'Bob (you)' }).waitFor();
      await bob.locator('.log li', { hasText: 'Ann completed a city for 4 points' }).waitFor();
      await bob.locator('.log li', { hasText: 'Bob put a follower on a road' }).waitFor();
      await bob.click('#sheet-close');
      step('Bob reloaded, is back in his seat, and his log was rebuilt');
    }
    if (i === 4) {
      // Ann's and Eve's connections drop: each page reconnects by itself, Ann resumes her seat
      // (she is in the middle of her turn) and Eve watches again.
      for (const p of [ann, eve]) await p.evaluate(() => window.carcassonne.conn.ws.close());
      await ann.locator('.marker[data-key="deploy:0:1:monastery0"]').waitFor();
      await ann.locator('#conn.open').waitFor();
      await eve.locator('#conn.open').waitFor();
      step('Ann and Eve lost their connections and came back');
    }
  }
  step('all moves played');

  for (const [name, p] of Object.entries(pages)) {
    const scores = await scoresShown(p, true);
    if (JSON.stringify(scores) !== JSON.stringify(expected)) throw new Error(`${name} shows final scores ${JSON.stringify(scores)}, expected ${JSON.stringify(expected)}`);
    const log = await p.locator('.log').textContent();
    // Bob reloaded and Eve may lag: Ann's log has seen every event.
    if (name !== 'eve' && !/Ann completed a city for 4 points/.test(log)) throw new Error(`${name}'s log lacks the city: ${log}`);
    if (/\(-?\d+, -?\d+\)|BA\//.test(log)) throw new Error(`${name}'s log names coordinates or tile codes: ${log}`);
    // The breakdown by category, from the points events, adds up to each final score.
    await p.locator('table.final[data-breakdown=yes]').waitFor();
    const city = await p.locator('table.final tr[data-cat=city] td[data-seat="0"]').textContent();
    if (city !== '4') throw new Error(`${name}: Ann's cities show ${city} points, not 4`);
    await checkFinalTable(p, name);
    // The score track: each seat's marker on its score.
    const track = await p.$$eval('.score-track .track-mark', (ms) => ms.map((m) => Number(m.dataset.space)));
    if (JSON.stringify(track) !== JSON.stringify(expected)) throw new Error(`${name}: the score track shows ${JSON.stringify(track)}`);
    await shot(p, `06-final-${name}`);
  }
  step(`final scores ${JSON.stringify(expected)} shown on all three pages`);

  // The spectator replays the finished game move by move (the `replay` message).
  await eve.locator('#replay-open').click();
  await eve.locator('#replay-position[data-move="0"]').waitFor();
  if (JSON.stringify(await scoresShown(eve, false)) !== '[0,0]') throw new Error('the replay does not start at 0 points');
  await eve.locator('#replay-next').click();
  await eve.locator('#replay-position[data-move="1"]').waitFor();
  const placed = await eve.locator('#replay-position').textContent();
  if (!/placed/.test(placed)) throw new Error(`move 1 of the replay is not told: ${placed}`);
  await wholeBoardShown(eve, 'move 1 of the replay');
  await eve.locator('#replay-last').click();
  const total = await eve.locator('#replay-position').getAttribute('data-moves');
  await eve.locator(`#replay-position[data-move="${total}"]`).waitFor();
  await wholeBoardShown(eve, 'the last move of the replay');
  if (JSON.stringify(await scoresShown(eve, false)) !== JSON.stringify(expected)) throw new Error('the replay ends elsewhere than the game');
  if (!(await eve.locator('table.final').count())) throw new Error('the final scores are hidden while replaying');
  if (await eve.locator('.log:not(.replay-log):visible').count()) throw new Error('the replay keeps the game log');
  await shot(eve, '07-replay-end');
  await eve.locator('#replay-close').click();
  await eve.locator('#replay-open').waitFor();  // back in the phone's sheet, opened again
  step(`the spectator replayed the ${total} moves to the same final scores`);

  for (const file of RECORDS) await playRecord(file, [pia, bob]);
  // Longer, optional: whole seeded games with every expansion, random choices by clicking.
  for (let g = 0; g < Number(process.env.WEB_TEST_RANDOM_GAMES ?? 0); g++) await playRandom([ann, bob], `web-random-${g}`);
  if (errors.length) throw new Error(`errors in the pages:\n${errors.join('\n')}`);
}

// The final scores fit their box (no sideways scrolling) and no two rows or columns are headed
// alike.
async function checkFinalTable(page, what) {
  const t = await page.evaluate(() => {
    const table = document.querySelector('table.final'), box = table.closest('.final');
    const heads = [...table.querySelectorAll('tbody th')].map((h) => h.textContent.trim());
    return { table: table.getBoundingClientRect().width, box: box.clientWidth, wrap: table.parentElement.scrollWidth - table.parentElement.clientWidth, heads };
  });
  if (t.table > t.box || t.wrap > 0) throw new Error(`${what}: the final scores are ${t.table.toFixed(0)} px wide in a ${t.box} px box`);
  if (new Set(t.heads).size !== t.heads.length) throw new Error(`${what}: the final scores' rows are headed ${t.heads.join(', ')}`);
}

// Every tile of the board lies in the board's box, above the action bar (the view re-fitted).
async function wholeBoardShown(page, what) {
  const out = await page.evaluate(() => {
    const b = document.querySelector('.board').getBoundingClientRect();
    const bar = document.querySelector('.bar-slot .actions')?.getBoundingClientRect();
    const bottom = bar && bar.top > b.top && bar.top < b.bottom ? bar.top : b.bottom;
    const tiles = [...document.querySelectorAll('.board .placed')].map((n) => n.getBoundingClientRect());
    return { n: tiles.length, out: tiles.filter((r) => r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > bottom + 1).length };
  });
  if (!out.n || out.out) throw new Error(`${what}: ${out.out} of ${out.n} tiles out of the board's view`);
}

// ---- Moves by clicking, as a person would: the page's markers and buttons carry the moves
// they send (data-key, data-move), so the test finds the one that plays the record's move.
const normal = (m) => {
  const c = { ...m };
  delete c.seat;
  if ((c.type === 'deploy' || c.type === 'return_figure') && c.figure === undefined) c.figure = 'meeple';
  if (c.protect === false) delete c.protect;
  return JSON.stringify(Object.keys(c).sort().map((k) => [k, c[k]]));
};
// As actions.js keys its markers.
function markerKey(m) {
  if (m.type === 'bunny') return `bunny:${m.path[m.path.length - 1].join(':')}`;
  if (m.x === undefined || m.feature === undefined) return null;
  const feature = m.card === 'change_position' ? m.to : m.feature;
  return `${m.type}:${m.x}:${m.y}:${feature}${m.type === 'return_figure' ? `:${m.figure ?? 'meeple'}` : ''}`;
}

async function offered(page) {  // the moves of the action bar's buttons
  return page.$$eval('.actions button[data-move]', (bs) => bs.map((b) => JSON.parse(b.dataset.move)));
}

async function clickButtonFor(page, move) {
  const moves = await offered(page);
  const i = moves.findIndex((m) => normal(m) === normal(move));
  if (i < 0) throw new Error(`no button for ${JSON.stringify(move)}; offered: ${JSON.stringify(moves)}`);
  await page.locator('.actions button[data-move]').nth(i).click();
}

// A marker plays its move when it has one; with several, it shows them first in the bar.
// Markers too close together are one magnifier: tapping it zooms in until they stand apart.
// A marker may stand for several segments of one feature (data-keys).
async function clickMarkerFor(page, move, shotAs) {
  const key = markerKey(move);
  const own = page.locator(`.marker:not(.marker-cluster)[data-keys~="${key}"]`);
  for (let i = 0; i < 8 && !(await own.count()); i++) {
    // One magnifier's tap zooms in until its circles stand apart: no magnifier in a magnifier.
    if (i === 1) throw new Error(`a magnifier tapped showed another one over ${key}`);
    await checkTargets(page);
    await page.locator(`.marker-cluster[data-keys~="${key}"]`).click();
    // The zoom redraws the markers: give it time to, before looking for the next magnifier (a
    // slow machine once took five taps before the first redraw, and failed here).
    await own.first().waitFor({ timeout: 3000 }).catch(() => {});
  }
  await checkTargets(page);
  if (shotAs) await page.screenshot({ path: join(artifacts, `${shotAs}.png`) });
  const shownKey = await own.getAttribute('data-key');
  await own.click();
  const sameSpot = (await offered(page)).filter((m) => markerKey(m) === shownKey);
  if (sameSpot.length > 1) {
    // The circle's moves come first in the bar; the full list opened shows each move once.
    const list = page.locator('.actions details.all-choices');
    if (await list.count()) await list.locator('summary').click();
    await checkLabels(page);
    await clickButtonFor(page, move);
  }
}

// No two controls read the same for different moves (the bar's buttons, the board's circles),
// and no move has two buttons (a circle's moves listed first are not listed again).
const labelsChecked = { controls: 0 };
async function checkLabels(page) {
  const found = await labelProblems(page);
  labelsChecked.controls += found.n;
  if (found.out.length) {
    await page.screenshot({ path: join(artifacts, 'failure-labels.png') });
    throw new Error(`controls that read the same: ${found.out.join('; ')}`);
  }
}

// On a phone: every control and choice in sight is at least 44 px both ways, and none covers
// another (buttons, the zoom, open squares, the board's markers).
const phones = new Set();
const checked = { targets: 0 };
async function checkTargets(page) {
  if (!phones.has(page)) return;
  const problems = await page.evaluate(() => {
    const vw = innerWidth, vh = innerHeight;
    const boxes = [];
    const visible = (r) => r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh;
    const isShown = (n) => n.checkVisibility ? n.checkVisibility() : n.offsetParent !== null;
    for (const n of document.querySelectorAll('.actions button, .zoom button, header button, .all-choices summary')) {
      const r = n.getBoundingClientRect();
      if (isShown(n) && visible(r)) boxes.push({ what: n.textContent.trim().slice(0, 30) || n.title, r, html: true });
    }
    // On the board: what it shows of each marker and square (the SVG clips them at its edge).
    const board = document.querySelector('.board').getBoundingClientRect();
    for (const n of document.querySelectorAll('.layer-markers .marker circle.ring, .legal-square')) {
      const full = n.getBoundingClientRect();
      const r = DOMRect.fromRect({ x: Math.max(full.left, board.left), y: Math.max(full.top, board.top), width: 0, height: 0 });
      const right = Math.min(full.right, board.right, vw), bottom = Math.min(full.bottom, board.bottom, vh);
      if (right - r.left < 1 || bottom - r.top < 1) continue;
      const shown = DOMRect.fromRect({ x: r.left, y: r.top, width: right - r.left, height: bottom - r.top });
      const whole = shown.width >= full.width - 0.5 && shown.height >= full.height - 0.5;
      boxes.push({ what: n.closest('.marker') ? (n.closest('.marker').dataset.key ?? `magnifier of ${n.closest('.marker').dataset.count}`) : `square ${n.dataset.x},${n.dataset.y}`, r: whole ? full : shown, html: false, cut: !whole, square: n.classList.contains('legal-square') });
    }
    const out = [];
    for (const b of boxes) if (!b.cut && (b.r.width < 43.5 || b.r.height < 43.5)) out.push(`${b.what}: ${b.r.width.toFixed(0)}x${b.r.height.toFixed(0)} px`);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].r, b = boxes[j].r;
      if (boxes[i].square && boxes[j].square) continue;  // squares tile the board, side by side
      if (!boxes[i].html && !boxes[j].html && (boxes[i].square || boxes[j].square)) continue;  // markers lie on the tiles
      const round = !boxes[i].html && !boxes[j].html && !boxes[i].cut && !boxes[j].cut;  // two markers: circles
      const overlap = round
        ? Math.hypot((a.left + a.right - b.left - b.right) / 2, (a.top + a.bottom - b.top - b.bottom) / 2) < (a.width + b.width) / 2 - 1
        : Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
      if (overlap) out.push(`${boxes[i].what} overlaps ${boxes[j].what}`);
    }
    return { out, n: boxes.length };
  });
  checked.targets += problems.n;
  if (problems.out.length) {
    await page.screenshot({ path: join(artifacts, `failure-targets.png`) });
    throw new Error(`tap targets on the phone: ${problems.out.join('; ')}`);
  }
}

// A square off the board's visible part is dragged into it, as a finger would pan the board.
async function bringIntoView(page, target) {
  for (let i = 0; i < 8; i++) {
    // A patch may redraw the board between two looks: wait for the square to be back.
    await target.waitFor();
    const [t, b] = [await target.boundingBox(), await page.locator('.board').boundingBox()];
    if (!t || !b) continue;
    // On a wide screen the action bar lies over the board's bottom: not a place to tap.
    const bar = await page.locator('.bar-slot .actions').boundingBox();
    if (bar && bar.y < b.y + b.height && bar.y > b.y) b.height = bar.y - b.y;
    if (t.x >= b.x && t.y >= b.y && t.x + t.width <= b.x + b.width && t.y + t.height <= b.y + b.height) return;
    // One stroke stays on the board: from the edge it pulls away from, at most across it.
    const clamp = (v, m) => Math.max(-m, Math.min(m, v));
    const dx = clamp(b.x + b.width / 2 - (t.x + t.width / 2), b.width - 24), dy = clamp(b.y + b.height / 2 - (t.y + t.height / 2), b.height - 24);
    const sx = dx >= 0 ? b.x + 8 : b.x + b.width - 8, sy = dy >= 0 ? b.y + 8 : b.y + b.height - 8;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, k) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: sx + dx * k, y: sy + dy * k }] });
    await touch('touchStart', 0);
    for (let k = 1; k <= 6; k++) await touch('touchMove', k / 6);
    await touch('touchEnd', 1);
    await cdp.detach();
  }
}

async function act(page, move, shotAs) {
  await page.locator('.actions[data-decision]').waitFor();
  await checkTargets(page);
  await checkLabels(page);
  switch (move.type) {
    case 'place_tile': {
      const square = page.locator(`.legal-square[data-x="${move.x}"][data-y="${move.y}"]`);
      await bringIntoView(page, square);
      await square.click();
      for (let turns = 0; turns < 4; turns++) {
        const r = await page.getAttribute('.layer-ghost .ghost', 'data-rotation');
        if (Number(r) === move.rotation) break;
        await page.click('[data-action=rotate-right]');
      }
      await checkTargets(page);
      if (shotAs) await page.screenshot({ path: join(artifacts, `${shotAs}.png`) });
      await page.click('.actions button[data-action=place_tile]:not([disabled])');
      break;
    }
    case 'open_gift':
      await page.click(`.actions button[data-action=open_gift][data-card="${move.card}"]`);
      if (move.x !== undefined) await clickMarkerFor(page, move, shotAs);
      break;
    case 'deploy': case 'return_figure': case 'protect': case 'bunny':
      await page.locator(`.marker[data-keys~="${markerKey(move)}"]`).first().waitFor();
      await clickMarkerFor(page, move, shotAs);
      break;
    default:  // pass, flock, choose_tile
      await checkTargets(page);
      if (shotAs) await page.screenshot({ path: join(artifacts, `${shotAs}.png`) });
      await clickButtonFor(page, move);
  }
}

const seqOf = (p) => p.evaluate(() => Number(document.getElementById('app').dataset.seq));
async function played(pages, before) {
  for (const p of pages) await p.waitForFunction((s) => Number(document.getElementById('app').dataset.seq) > s, before);
}

async function scoresShown(page, finished) {
  if (finished) {
    await page.locator('table.final').waitFor();
    const rows = await page.$$eval('table.final td.final-score', (cs) => cs.map((c) => [Number(c.dataset.seat), Number(c.textContent)]));
    const scores = [];
    for (const [seat, score] of rows) scores[seat] = score;
    return scores;
  }
  return page.$$eval('.players .player', (ps) => ps.map((p) => Number(p.querySelector('.score').textContent)));
}

// A whole seeded game with every expansion (WEB_TEST_RANDOM_GAMES=N; about a minute each), each
// seat choosing at random among what its page offers: a square and Place, a marker, or a button of the
// action bar. No page may fail, and both pages must show the same final scores (the record of
// a room cannot be fetched to replay it).
async function playRandom(players, seed) {
  let rng = [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
  const random = () => { rng = (rng + 0x6d2b79f5) >>> 0; let t = rng; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const [first, second] = players;
  await first.goto(`${base}/#`);
  await playAs(first, 'Ann');
  for (const e of ['hills_and_sheep', 'gifts', 'peasant_revolts', 'easter', 'festival']) await first.check(`#exp-${e}`);
  await first.locator('#create-form details summary').click();
  await first.fill('#scripted-setup', JSON.stringify({ seed }));
  await first.click('#create');
  await first.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(first.url()).hash.replace(/^#room=/, '');
  await second.goto(`${base}/#room=${room}`);
  await playAs(second, 'Bob');
  await second.click('[data-action=join]');
  await second.locator('.seats li strong', { hasText: '(you)' }).waitFor();
  await first.click('[data-action=start]:not([disabled])');
  let moves = 0;
  for (;;) {
    const state = await first.evaluate(() => document.getElementById('app').dataset.state);
    if (state === 'finished') break;
    const before = await seqOf(first);
    let acted = false;
    for (const p of players) {
      if (!(await p.locator('.actions[data-decision]').count())) continue;
      const squares = p.locator('.legal-square');
      const n = await squares.count();
      if (n && !(await p.locator('.actions[data-decision=open_gift]').count()) && random() < 0.9) {
        const square = squares.nth(Math.floor(random() * n));
        await bringIntoView(p, square);
        await square.click();
        // Zoomed out, the first tap zooms in (then the square is big enough to choose).
        if (!(await p.locator('.legal-square.selected').count())) { await bringIntoView(p, square); await square.click(); }
        await checkTargets(p);
        await p.click('.actions button[data-action=place_tile]:not([disabled])');
      } else {
        const buttons = p.locator('.actions button[data-move]:visible, .actions button[data-action=open_gift]:visible, .layer-markers .marker');
        const b = await buttons.count();
        if (!b) continue;
        await checkLabels(p);
        const target = buttons.nth(Math.floor(random() * b));
        if (await target.evaluate((n) => n.closest('svg') !== null)) await bringIntoView(p, target);
        await checkTargets(p);
        await target.click();
      }
      acted = true;
      break;
    }
    if (!acted) { await first.waitForTimeout(50); continue; }
    try {
      await first.waitForFunction((s) => Number(document.getElementById('app').dataset.seq) > s, before, { timeout: 1500 });
      moves++;
      if (moves % 40 === 0) {
        step(`random game ${seed}: ${moves} moves`);
        for (let i = 0; i < players.length; i++) await players[i].screenshot({ path: join(artifacts, `random-${seed}-${i}-at-${moves}.png`) });
      }
    } catch { /* a choice inside the page (a gift card's targets): no move yet */ }
  }
  const scores = [];
  for (const p of players) scores.push(JSON.stringify(await scoresShown(p, true)));
  if (scores[0] !== scores[1]) throw new Error(`random game ${seed}: the pages disagree: ${scores.join(' vs ')}`);
  for (let i = 0; i < players.length; i++) await players[i].screenshot({ path: join(artifacts, `random-${seed}-${i}.png`) });
  step(`random game ${seed}: ${moves} moves by clicking, final scores ${scores[0]}`);
}

// The same decision on a 1366 × 768 desktop: the phone's page widened for the picture, then
// narrowed back (the board fits itself to each size).
async function desktopShot(page, name) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.waitForFunction(() => innerWidth === 1366);
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(artifacts, `${name}.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => innerWidth === 390);
  await page.waitForTimeout(150);
}

// A record of two players, from the lobby form to its last move.
async function playRecord(file, players) {
  const record = JSON.parse(readFileSync(file, 'utf8'));
  const name = file.replace(/^.*\//, '').replace(/\.json$/, '');
  const setup = record.setup;
  if (setup.players.length !== players.length) throw new Error(`${name}: ${setup.players.length} players`);
  const expected = replay(record);
  const [first, ...others] = players;

  await first.goto(`${base}/#`);
  await playAs(first, setup.players[0].name);
  for (const e of setup.expansions ?? []) await first.check(`#exp-${e}`);
  for (const [k, v] of Object.entries(setup.options ?? {})) await first.locator(`[id="opt-${k}"]`).selectOption(JSON.stringify(v));
  await first.locator('#create-form details summary').click();
  const scripted = {};
  if (setup.seed !== undefined) scripted.seed = setup.seed;
  if (setup.script !== undefined) scripted.script = setup.script;
  await first.fill('#scripted-setup', JSON.stringify(scripted));
  await first.click('#create');
  await first.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(first.url()).hash.replace(/^#room=/, '');
  for (let i = 0; i < others.length; i++) {
    await others[i].goto(`${base}/#room=${room}`);
    await playAs(others[i], setup.players[i + 1].name);
    await others[i].click('[data-action=join]');
    await others[i].locator('.seats li strong', { hasText: '(you)' }).waitFor();
  }
  await first.click('[data-action=start]:not([disabled])');
  for (const p of players) await p.locator('.board .placed').first().waitFor();

  // One screenshot of each kind of decision met (on the phone): `decision-KIND[-detail]`.
  for (const move of record.moves) {
    const before = await seqOf(players[0]);
    const page = players[move.seat];
    const decision = await page.locator('.actions[data-decision]').first().getAttribute('data-decision').catch(() => null);
    const detail = move.type === 'open_gift' ? `-${move.card}` : move.type === 'deploy' && move.figure === 'shepherd' ? '-shepherd' : move.protect ? '-protected'
      : ['return_figure', 'flock', 'choose_tile', 'bunny', 'protect'].includes(move.type) && move.type !== decision ? `-${move.type}` : '';
    const kind = `phone-${decision ?? move.type}${detail}`;
    const shotAs = shotKinds.has(kind) ? null : kind;
    shotKinds.add(kind);
    if (shotAs) await desktopShot(page, kind.replace(/^phone-/, 'desktop-'));
    await act(page, move, shotAs);
    await played(players, before);
  }
  for (let i = 0; i < players.length; i++) {
    const shown = await scoresShown(players[i], expected.status === 'finished');
    if (JSON.stringify(shown) !== JSON.stringify(expected.scores)) {
      throw new Error(`${name}: seat ${i} shows ${JSON.stringify(shown)}, the engine says ${JSON.stringify(expected.scores)}`);
    }
  }
  if (expected.status === 'finished') for (const p of players) await checkFinalTable(p, name);
  await players[0].screenshot({ path: join(artifacts, `r-${name}-end.png`) });
  step(`${name}: ${record.moves.length} moves by clicking, scores ${JSON.stringify(expected.scores)} (${expected.status})`);
}

const shotKinds = new Set();
try {
  await main();
  step(`decision kinds shot on the phone and a desktop: ${[...shotKinds].sort().join(', ')}; ${checked.targets} tap targets checked; ${labelsChecked.controls} labels checked`);
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
