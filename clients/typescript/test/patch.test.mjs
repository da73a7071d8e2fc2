import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from '../src/patch.js';
import { Backoff } from '../src/backoff.js';

test('applyPatch: add, remove, replace in order, on a copy', () => {
  const doc = { room: { seats: [{ connected: true }, { connected: true }] }, game: { board: [1, 2] } };
  const out = applyPatch(doc, [
    { op: 'replace', path: '/room/seats/1/connected', value: false },
    { op: 'add', path: '/game/board/-', value: 3 },
    { op: 'add', path: '/game/board/0', value: 0 },
    { op: 'remove', path: '/game/board/2' },
    { op: 'add', path: '/game/legal_moves', value: [] },
    { op: 'add', path: '/a~1b~0c', value: 'escaped' },
  ]);
  assert.deepEqual(out, {
    room: { seats: [{ connected: true }, { connected: false }] },
    game: { board: [0, 1, 3], legal_moves: [] },
    'a/b~c': 'escaped',
  });
  assert.deepEqual(doc.game.board, [1, 2], 'the input is not changed');
  assert.deepEqual(applyPatch(doc, [{ op: 'replace', path: '', value: { x: 1 } }]), { x: 1 });
  assert.deepEqual(applyPatch({ game: {} }, [{ op: 'remove', path: '/game' }]), {});
});

test('applyPatch: a path through a non-container or past an array throws', () => {
  assert.throws(() => applyPatch({ a: 1 }, [{ op: 'add', path: '/a/b', value: 2 }]), /non-container/);
  assert.throws(() => applyPatch({ a: [] }, [{ op: 'add', path: '/a/3', value: 2 }]), /no such index/);
});

test('Backoff doubles up to its maximum and resets', () => {
  const b = new Backoff(500, 8000);
  assert.deepEqual([b.next(), b.next(), b.next(), b.next(), b.next(), b.next()], [500, 1000, 2000, 4000, 8000, 8000]);
  b.reset();
  assert.equal(b.next(), 500);
});
