// The page's tile drawing (server/web/js/tile_geometry.js) against the engine's catalogue
// (engine/data/tiles/*.json), in Node without a browser:
//   node --test tests/web/tile_geometry_test.mjs
// For every tile type: the drawing keeps apart the fields the catalogue keeps apart, every
// feature has a spot for a figure inside the tile, and two features' spots are far enough apart
// to be told apart on the board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tileGeometry, rotatePoint } from '../../server/web/js/tile_geometry.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(root, 'engine', 'data', 'tiles');
const tiles = readdirSync(dir).filter((f) => f.endsWith('.json')).flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));

test('the catalogue has every set', () => {
  assert.ok(tiles.length >= 84, `${tiles.length} tile types`);
});

for (const tile of tiles) {
  test(`${tile.id}: fields apart, a spot per feature`, () => {
    const g = tileGeometry(tile);
    assert.deepEqual(g.merged, [], 'fields that the catalogue keeps apart touch in the drawing');
    const ids = tile.features.map((f) => f.id);
    assert.deepEqual(Object.keys(g.anchors).sort(), [...ids].sort());
    const spots = Object.entries(g.anchors);
    for (const [id, [x, y]] of spots) {
      assert.ok(x > 2 && x < 98 && y > 2 && y < 98, `${id} at (${x}, ${y}) is on the edge`);
    }
    for (let i = 0; i < spots.length; i++) {
      for (let j = i + 1; j < spots.length; j++) {
        const d = Math.hypot(spots[i][1][0] - spots[j][1][0], spots[i][1][1] - spots[j][1][1]);
        assert.ok(d >= 12, `${spots[i][0]} and ${spots[j][0]} are ${d.toFixed(1)} apart`);
      }
    }
    const symbols = ['hill', 'vineyard', 'festival', 'easter_nest', 'easter_bunny', 'revolt'].filter((k) => tile[k]).length;
    assert.equal(g.badges.length, symbols);
    assert.equal(g.cities.length, tile.features.filter((f) => f.type === 'city').length);
    assert.equal(g.roads.length, tile.features.filter((f) => f.type === 'road').length);
  });
}

test('rotation turns clockwise about the centre', () => {
  assert.deepEqual(rotatePoint([50, 0], 90).map(Math.round), [100, 50]);
  assert.deepEqual(rotatePoint([50, 0], 180).map(Math.round), [50, 100]);
  assert.deepEqual(rotatePoint([100, 50], 270).map(Math.round), [50, 0]);
});
