#!/usr/bin/env node
// Browser test of quick play, series and tournaments on the page (server/web/js/quickplay.js,
// tournaments.js; docs/web.md "Play now", "Tournaments"), run by run_web_test.sh like
// accounts_test.mjs, with the server's bots moving at once in competition games
// (CARCASSONNE_COMPETITION_BOT_PAUSE_MS=0, tests/CMakeLists.txt):
//
//   node tests/web/quickplay_test.mjs http://127.0.0.1:PORT path/to/carcassonne ARTIFACTS_DIR
//
// Ann (desktop) presses Play now, seeks and cancels: the server has no seek of hers left; a search
// whose connection closes is told as ended. Then Ann
// and Bob (a 390 × 844 phone) seek blitz, best of 3: both land in the same room on opposite
// seats, the header says "Game 1 of best of 3", both names and the board show; Ann places her
// tile by tapping and resigns; both are offered "Next game" and take it: game 2, seats swapped.
// Bob reloads and is back on his seat without a token. A director (a third page's guest, over
// its WebSocket) makes a one-round Swiss of 3 bots and at most 4 players: Ann registers from its
// page, Bob is refused (full, in the server's words); the director starts it, Ann's page goes to
// her table (and back to it with Play from the tournament's page; resigned), and Bob's page shows the standings, the round's tables and a
// record link that answers the game's record. Ann's profile lists the series and the tournament.
// Exit 0 on success, 1 with a message on failure.
import { join } from 'node:path';
import { webTest, playAs, checkPhoneSizes } from './harness.mjs';

const t = webTest('quickplay_test');
const { base, artifacts, step } = t;

const roomOf = (page) => page.evaluate(() => /room=([^&]+)/.exec(location.hash)?.[1] ?? null);
const seatOf = (page) => page.evaluate(() => ({ room: window.carcassonne.conn.room, mode: window.carcassonne.conn.mode, seat: window.carcassonne.conn.seat }));

// Chooses blitz, two players, best of 3 in the open chooser and asks for a game. The search is
// shown unless `matched`: a seeker who completes a waiting search may be sent to the room before
// the page ever draws "Looking for opponents".
async function seekBlitzSeries(page, { matched = false } = {}) {
  if (!(await page.locator('#play-now-form').count())) await page.click('#play-now');
  await page.selectOption('#qp-time', 'blitz');
  await page.selectOption('#qp-seats', '2');
  await page.selectOption('#qp-best-of', '3');
  await page.click('#find-game');
  if (!matched) await page.locator('#seeking', { hasText: /Looking for opponents… \(0:0\d\)/ }).waitFor();
}

// The game of `room` is shown: the board, and both names in the players' list.
async function inGame(page, room, names) {
  await page.waitForFunction((r) => window.carcassonne.conn.room === r && window.carcassonne.conn.view?.game, room);
  await page.locator('.board').first().waitFor();
  // (On the phone the players panel is in the closed sheet: there, only in the page.)
  for (const n of names) await page.locator('.players li .name', { hasText: n }).waitFor({ state: 'attached' });
}

async function main() {
  const ann = await t.open('ann', { acceptDialogs: true, consoleErrors: true });
  const bob = await t.open('bob', { acceptDialogs: true, phone: true });
  const shot = (page, name) => page.screenshot({ path: join(artifacts, `quickplay-${name}.png`) });
  for (const p of [ann, bob]) await p.goto(base);
  const annName = await playAs(ann, 'Ann Quick');
  const bobName = await playAs(bob, 'Bob Quick');
  for (const p of [ann, bob]) await p.waitForFunction((n) => window.carcassonne.conn.player?.name === n, p === ann ? annName : bobName);

  // ---- Play now on the phone: a big button, a chooser that fits.
  const button = await bob.locator('#play-now').boundingBox();
  if (button.width < 44 || button.height < 44) throw new Error(`Play now is ${button.width} × ${button.height}`);
  // Closed, the card holds the button and its words only (a missing chooser is no stray "null").
  const closed = await bob.locator('#play-now-card').textContent();
  if (/null|undefined/.test(closed)) throw new Error(`the closed Play now card: ${closed}`);
  await bob.click('#play-now');
  await bob.locator('#play-now-form #qp-rated:checked').waitFor();
  if (await bob.locator('#qp-time').inputValue() !== 'rapid') throw new Error('the chooser does not default to rapid');
  await checkPhoneSizes(bob, 'the lobby with the chooser open');
  await shot(bob, '01-chooser');

  // ---- A search cancelled: nothing left to cancel on the server.
  await seekBlitzSeries(ann);
  await ann.locator('#seek-time', { hasText: '0:01' }).waitFor();
  await ann.click('#cancel-seek');
  await ann.locator('#play-now').waitFor();
  const again = await ann.evaluate(() => window.carcassonne.conn.request({ type: 'cancel_seek' }));
  if (again.code !== 'no_seek') throw new Error(`after Cancel the server still has a seek: ${JSON.stringify(again)}`);
  step('a search shown with its time, then cancelled: the server has no seek left');
  // A closed connection ends the search (the server drops that connection's seek): the page says so.
  await seekBlitzSeries(ann);
  await ann.evaluate(() => window.carcassonne.conn.ws.close());
  await ann.locator('.notice', { hasText: 'the search for a game stopped' }).waitFor();
  await ann.locator('#play-now').waitFor();
  await ann.waitForFunction(() => window.carcassonne.conn.welcomed && window.carcassonne.conn.player !== null);
  step('a search ended by a closed connection: told, Play now offered again');

  // ---- Two seekers, one room: opposite seats, the series in the header.
  await seekBlitzSeries(ann);
  await seekBlitzSeries(bob, { matched: true });
  await ann.waitForFunction(() => /room=/.test(location.hash));
  await bob.waitForFunction(() => /room=/.test(location.hash));
  const room1 = await roomOf(ann);
  if (await roomOf(bob) !== room1) throw new Error(`not the same room: ${room1} and ${await roomOf(bob)}`);
  for (const p of [ann, bob]) await inGame(p, room1, [annName, bobName]);
  const [a1, b1] = [await seatOf(ann), await seatOf(bob)];
  if (a1.mode !== 'seat' || b1.mode !== 'seat' || a1.seat !== 0 || b1.seat !== 1) throw new Error(`seats: ${JSON.stringify([a1, b1])}`);
  for (const p of [ann, bob]) await p.locator('#room-title', { hasText: 'Game 1 of best of 3' }).waitFor();
  const kept = await bob.evaluate((r) => JSON.parse(localStorage.getItem('carcassonne.v1')).seats[r], room1);
  if (kept.token !== null || kept.arranged?.series === undefined) throw new Error(`the seat kept: ${JSON.stringify(kept)}`);
  await checkPhoneSizes(bob, 'the game');
  await shot(bob, '02-game-1');
  step(`matched in room ${room1}: Ann seat 0, Bob seat 1, "Game 1 of best of 3"`);

  // Ann, who waited longer, sits first: she places her tile by tapping a square.
  const square = ann.locator('.legal-square').first();
  await square.click();
  if (!(await ann.locator('.legal-square.selected').count())) await square.click();
  await ann.click('.actions button[data-action=place_tile]:not([disabled])');
  await bob.waitForFunction(() => document.querySelectorAll('.board .placed').length >= 2);
  await ann.click('#resign');
  for (const p of [ann, bob]) await p.waitForFunction(() => window.carcassonne.conn.view?.game?.status === 'finished');
  step('Ann placed her tile by tapping, then resigned game 1');

  // ---- The series' next game: offered to both, taken; seats swapped.
  for (const p of [ann, bob]) await p.locator('#match-banner #next-game').waitFor();
  await checkPhoneSizes(bob, 'the banner of the next game');
  await shot(bob, '03-next-game');
  for (const p of [ann, bob]) await p.click('#match-banner #next-game');
  await ann.waitForFunction((r) => window.carcassonne.conn.room && window.carcassonne.conn.room !== r, room1);
  const room2 = await roomOf(ann);
  await bob.waitForFunction((r) => window.carcassonne.conn.room === r, room2);
  for (const p of [ann, bob]) {
    await inGame(p, room2, [annName, bobName]);
    await p.locator('#room-title', { hasText: 'Game 2 of best of 3' }).waitFor();
  }
  const [a2, b2] = [await seatOf(ann), await seatOf(bob)];
  if (a2.seat !== 1 || b2.seat !== 0) throw new Error(`game 2's seats: ${JSON.stringify([a2, b2])}`);
  step(`game 2 in room ${room2}: both took "Next game", Bob sits first`);

  // ---- A reload takes the seat back, signed in, without a token.
  await bob.reload();
  await bob.waitForFunction((r) => window.carcassonne.conn.room === r && window.carcassonne.conn.inRoom && window.carcassonne.conn.mode === 'seat', room2);
  await inGame(bob, room2, [annName, bobName]);
  if ((await seatOf(bob)).seat !== 0) throw new Error('after a reload Bob is not on seat 0');
  await bob.locator('#room-title', { hasText: 'Game 2 of best of 3' }).waitFor();
  step('Bob reloaded: back on his seat, resumed without a token');

  // ---- A tournament made by a director over the WebSocket: 3 bots, room for 4.
  const director = await t.open('director');
  await director.goto(base);
  await director.waitForFunction(() => window.carcassonne.conn.player !== null);
  const made = await director.evaluate(async () => {
    const conn = window.carcassonne.conn;
    const created = await conn.request({ type: 'create_tournament', tournament: { name: 'Web Swiss', rounds: 1, max_players: 4, round_gap_ms: 0,
      starts_ms: Date.now() + 3600000, room: { setup: {}, match: { clock: 'fischer', initial_s: 300, increment_s: 5 } } } });
    if (created.type !== 'tournament_created') return created;
    return conn.request({ type: 'tournament', tournament: created.tournament.id, action: 'add_bots', count: 3, level: 'random' });
  });
  if (made.type !== 'tournament_updated') throw new Error(`the tournament: ${JSON.stringify(made)}`);
  const tid = made.tournament.id;

  // Ann registers from the tournament's page (reached from the list); Bob is refused: full.
  await ann.goto(`${base}/#tournaments`);
  await ann.locator(`#tournaments tr[data-tournament="${tid}"] a`).click();
  await ann.locator(`#tournament[data-tournament="${tid}"] #tournament-name`, { hasText: 'Web Swiss' }).waitFor();
  await ann.click('#tournament-actions [data-action=register]');
  await ann.locator('#my-entry', { hasText: 'registered' }).waitFor();
  await ann.locator('#participants li', { hasText: annName }).waitFor();
  await bob.goto(`${base}/#`);
  await bob.click('#tournaments-link');
  await bob.locator(`#tournaments tr[data-tournament="${tid}"] a`).click();
  await bob.click('#tournament-actions [data-action=register]');
  await bob.locator('#tournament-error', { hasText: /full/i }).waitFor();
  await checkPhoneSizes(bob, 'the tournament in registration');
  step(`tournament ${tid}: Ann registered from its page, Bob refused (${await bob.locator('#tournament-error').textContent()})`);

  // Started: Ann's page goes to her table at once; she resigns.
  const started = await director.evaluate((id) => window.carcassonne.conn.request({ type: 'tournament', tournament: id, action: 'start' }), tid);
  if (started.tournament?.phase !== 'running') throw new Error(`start: ${JSON.stringify(started)}`);
  await ann.waitForFunction(() => /room=/.test(location.hash));
  const tableRoom = await roomOf(ann);
  await inGame(ann, tableRoom, [annName]);
  await ann.locator('#room-title', { hasText: 'Round 1' }).waitFor();
  // Away to the tournament's page and back to her table with Play.
  await ann.goto(`${base}/#tournament=${tid}`);
  await ann.click(`table.round tr.me [data-action=play]`);
  await ann.waitForFunction((r) => window.carcassonne.conn.room === r && window.carcassonne.conn.inRoom && window.carcassonne.conn.mode === 'seat', tableRoom);
  await inGame(ann, tableRoom, [annName]);
  await ann.click('#resign');
  await ann.waitForFunction(() => window.carcassonne.conn.view?.game?.status === 'finished');
  step(`Ann's page went to her table (${tableRoom}) at the start, and back with Play from the tournament's page; she resigned`);

  // Bob's page (refreshed while running): standings, the round's tables, a record that opens.
  await bob.locator('#standings tbody tr').nth(3).waitFor();
  if (await bob.locator('#standings tbody tr').count() !== 4) throw new Error('the standings do not have 4 rows');
  await bob.locator('table.round[data-round="1"] tbody tr').nth(1).waitFor();
  await bob.locator(`table.round [data-action=record][data-room="${tableRoom}"]`).waitFor({ timeout: 20000 });
  await bob.locator('#tournament[data-phase=finished]').waitFor({ timeout: 20000 });
  const recordPath = await bob.locator(`table.round [data-action=record][data-room="${tableRoom}"]`).getAttribute('href');
  const record = await bob.evaluate((p) => fetch(p).then((r) => r.json()), recordPath);
  if (!record.setup?.players?.some((p) => p.name === annName)) throw new Error(`the record ${recordPath}: ${JSON.stringify(record).slice(0, 300)}`);
  const annRow = await bob.locator('#standings tbody tr', { hasText: annName }).innerText();
  await checkPhoneSizes(bob, 'the tournament finished');
  await shot(bob, '04-tournament');
  step(`the tournament's page: 4 standings rows (Ann: ${annRow.replace(/\s+/g, ' ')}), 2 tables, the record ${recordPath}`);

  // ---- Ann's profile: the series and the tournament.
  await ann.goto(`${base}/#`);
  await ann.click('#my-games');
  await ann.locator(`#profile-competitions a[href="#tournament=${tid}"]`).waitFor();
  const series = ann.locator('#profile-competitions a[href^="#series="]');
  await series.waitFor();
  await series.click();
  await ann.locator('#series-score', { hasText: '0 – 1' }).waitFor();
  await ann.locator(`#series .game-item[data-room="${room1}"] [data-action=record]`).waitFor();
  await ann.locator(`#series .game-item[data-room="${room1}"] .game-winner`, { hasText: `won by ${bobName}` }).waitFor();
  await shot(ann, '05-series');
  step('Ann\'s profile lists the tournament and the series; the series shows 0 – 1 and game 1\'s record');
}

t.run(main);
