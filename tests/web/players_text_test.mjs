// A finished game's result for a seat as the page words it (server/web/js/players_text.js),
// counted as the ratings count it (docs/protocol.md §23): a seat that forfeited is behind every
// seat that did not, whatever the scores, and level with every other seat that forfeited.
// Run by CTest (web_players_text) with `node --test`; no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultOf } from '../../server/web/js/players_text.js';

const game = (...seats) => ({ seats: seats.map(([score, forfeited]) => ({ score, forfeited })) });

test('a duel: won, lost, draw', () => {
  assert.equal(resultOf(game([10, false], [5, false]), 0), 'won');
  assert.equal(resultOf(game([10, false], [5, false]), 1), 'lost');
  assert.equal(resultOf(game([5, false], [5, false]), 1), 'draw');
});

test('a forfeit loses whatever the scores; two forfeits draw', () => {
  assert.equal(resultOf(game([30, true], [5, false]), 0), 'lost');
  assert.equal(resultOf(game([30, true], [5, false]), 1), 'won');
  assert.equal(resultOf(game([3, true], [9, true]), 0), 'draw');
});

test('a larger table: places, shared ones', () => {
  assert.equal(resultOf(game([30, false], [20, false], [25, false]), 0), '1st of 3');
  assert.equal(resultOf(game([20, false], [20, false], [25, false]), 1), 'shared 2nd of 3');
  assert.equal(resultOf(game([30, true], [20, false], [25, false], [1, false]), 0), '4th of 4');
  assert.equal(resultOf(game([30, true], [20, true], [25, false]), 1), 'shared 2nd of 3');
});
