#!/usr/bin/env node
// Browser test of the page's fair-deck check (server/web/js/fairness.js, docs/fairness.md), in
// Debian's Chromium driven by playwright-core:
//
//   node tests/web/fairness_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// Ann creates a base-game room from the lobby form (no seed: the server commits to a secret),
// Bob opens the link and joins; each page sends a nonce made with crypto.getRandomValues. The
// page shows the commitment while the game runs. The two pages play the whole game through their
// own connections (random legal moves, no clicking: web_test.mjs covers that). At the end both
// pages must say "verified" (computed in the browser with SubtleCrypto) with a link to the
// record; the record must hold both pages' nonces and pass `carcassonne verify`. Then the check
// must fail on a page whose remembered commitment is not the room's. Last, a rematch: its
// commitment shown at the end, each page's nonce sent with its answer, and verified again.
import { execFileSync } from 'node:child_process';
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { playAs, webTest } from './harness.mjs';

const t = webTest('fairness_test');
const { base, binary, artifacts, step } = t;
const open = (who) => t.open(who);

async function main() {
  const ann = await open('ann'), bob = await open('bob');

  await ann.goto(base);
  await playAs(ann, 'Ann');
  await ann.click('#create');
  await ann.waitForFunction(() => /room=/.test(location.hash));
  const room = new URL(ann.url()).hash.replace(/^#room=/, '');
  await bob.goto(`${base}/#room=${room}`);
  await playAs(bob, 'Bob');
  await bob.click('[data-action=join]');
  await ann.locator('.seats li', { hasText: 'Bob' }).waitFor();

  const listed = await fetch(`${base}/api/rooms`).then((r) => r.json());
  const commitment = listed.rooms.find((r) => r.id === room)?.commitment;
  if (!/^[0-9a-f]{64}$/.test(commitment ?? '')) throw new Error(`no commitment in /api/rooms: ${JSON.stringify(listed)}`);
  for (const p of [ann, bob]) {
    await p.locator('#fairness[data-fairness=committed]').waitFor();
    const text = await p.locator('#fairness').textContent();
    if (!text.includes(commitment.slice(0, 16))) throw new Error(`the page does not show the commitment: ${text}`);
  }
  const nonces = await Promise.all([ann, bob].map((p) => p.evaluate((r) => JSON.parse(localStorage.getItem('carcassonne.fairness.v1'))[r].nonce, room)));
  step(`room ${room}, commitment ${commitment.slice(0, 16)}…, nonces ${nonces.join(', ')}`);

  await ann.click('[data-action=start]:not([disabled])');
  for (const p of [ann, bob]) await p.waitForFunction(() => window.carcassonne.conn.view?.game);

  // Each page plays its own seat: the one with legal_moves sends one, both catch up.
  let moves = 0;
  for (; moves < 1000; moves++) {
    const state = await ann.evaluate(() => window.carcassonne.conn.view.game.status);
    if (state === 'finished') break;
    let seq = null;
    for (const p of [ann, bob]) {
      seq = await p.evaluate(async (pick) => {
        const conn = window.carcassonne.conn;
        const legal = conn.view.game.legal_moves;
        if (!legal?.length) return null;
        const answer = await conn.move(legal[Math.floor(pick * legal.length)]);
        if (answer.type !== 'move_accepted') throw new Error(JSON.stringify(answer));
        return answer.seq;
      }, Math.random());
      if (seq !== null) break;
    }
    if (seq === null) throw new Error('no page has a legal move');
    for (const p of [ann, bob]) await p.waitForFunction((n) => window.carcassonne.conn.seq >= n, seq);
  }
  step(`game over after ${moves} moves`);

  for (const p of [ann, bob]) {
    await p.locator('#fairness[data-fairness=verified]').waitFor();
    const href = await p.locator('#fairness a').getAttribute('href');
    if (href !== `/api/rooms/${room}/record`) throw new Error(`link to the record: ${href}`);
  }
  await ann.screenshot({ path: join(artifacts, 'fairness-verified.png') });
  const record = await fetch(`${base}/api/rooms/${room}/record`).then((r) => r.json());
  if (JSON.stringify(record.fairness.nonces) !== JSON.stringify(nonces)) throw new Error(`nonces in the record: ${JSON.stringify(record.fairness.nonces)}`);
  const file = join(tmpdir(), `fairness_test_${process.pid}.json`);
  writeFileSync(file, JSON.stringify(record));
  let verdict;
  try { verdict = JSON.parse(execFileSync(binary, ['verify', file], { encoding: 'utf8' })); } finally { unlinkSync(file); }
  if (verdict.verified !== true) throw new Error(`carcassonne verify: ${JSON.stringify(verdict)}`);
  step(`the pages say verified; carcassonne verify checked ${verdict.outcomes} outcomes`);

  // A page that had seen another commitment before the end must not say verified.
  await bob.evaluate((r) => {
    const d = JSON.parse(localStorage.getItem('carcassonne.fairness.v1'));
    d[r].commitment = '0'.repeat(64);
    localStorage.setItem('carcassonne.fairness.v1', JSON.stringify(d));
  }, room);
  await bob.reload();
  await bob.locator('#fairness[data-fairness=failed]').waitFor();
  step('a wrong remembered commitment is reported as NOT verified');

  // A rematch (docs/fairness.md "Rematches"): committed to at the end, each page's nonce sent with
  // its offer or acceptance; the new room's game verifies on both pages.
  const next = await ann.evaluate(() => window.carcassonne.conn.view.room.fairness.rematch_commitment);
  if (!/^[0-9a-f]{64}$/.test(next ?? '')) throw new Error(`no rematch commitment: ${next}`);
  await ann.click('#rematch');
  await bob.locator('#rematch-accept').click();
  for (const p of [ann, bob]) await p.waitForFunction((old) => !location.hash.includes(old) && window.carcassonne.conn.view?.game?.status === 'playing', room);
  const again = new URL(ann.url()).hash.replace(/^#room=/, '');
  const fair = await ann.evaluate(() => window.carcassonne.conn.view.room.fairness);
  const sent = await Promise.all([ann, bob].map((p) => p.evaluate((r) => JSON.parse(localStorage.getItem('carcassonne.fairness.v1'))[r].nonce, again)));
  if (fair.commitment !== next) throw new Error(`the rematch's commitment ${fair.commitment} is not the one shown at the end, ${next}`);
  if (JSON.stringify(fair.nonces) !== JSON.stringify(sent)) throw new Error(`rematch nonces ${JSON.stringify(fair.nonces)}, the pages sent ${JSON.stringify(sent)}`);
  await ann.evaluate(() => window.carcassonne.conn.request({ type: 'resign' }));  // in her turn: the end
  for (const p of [ann, bob]) await p.locator('#fairness[data-fairness=verified]').waitFor();
  step(`rematch in room ${again}: commitment shown before the offer, both pages' nonces, verified`);
}

t.run(main);
