// Which segments on the board make one road or one city, from the catalogue's edges alone:
// a segment joins the segment of the neighbouring tile that owns the facing edge. This is
// only to show one target for a feature that the server names by any of its segments (Road
// Sweeper); who owns it and what it is worth is never computed here.
import { tileType } from './tiles_svg.js';

const EDGES = ['N', 'E', 'S', 'W'];
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: 'S', E: 'W', S: 'N', W: 'E' };

// The edge a tile's own edge faces once the tile is turned by `rotation` (clockwise).
const turned = (edge, rotation) => EDGES[(EDGES.indexOf(edge) + rotation / 90) % 4];

// -> Map "x,y,feature" -> a group id shared by every segment of one road or city.
export function featureGroups(board) {
  const parent = new Map();
  const find = (k) => { while (parent.get(k) !== k) { parent.set(k, parent.get(parent.get(k))); k = parent.get(k); } return k; };
  const union = (a, b) => { const ra = find(a), rb = find(b); if (ra !== rb) parent.set(ra, rb); };
  const owner = new Map();  // "x,y,edge" (board frame) -> "x,y,feature"
  for (const t of board) {
    for (const f of tileType(t.tile)?.features ?? []) {
      if (f.type !== 'road' && f.type !== 'city') continue;
      const key = `${t.x},${t.y},${f.id}`;
      parent.set(key, key);
      for (const e of f.edges ?? []) owner.set(`${t.x},${t.y},${turned(e, t.rotation)}`, key);
    }
  }
  for (const [where, key] of owner) {
    const [x, y, e] = where.split(',');
    const [dx, dy] = STEP[e];
    const other = owner.get(`${Number(x) + dx},${Number(y) + dy},${OPPOSITE[e]}`);
    if (other) union(key, other);
  }
  const groups = new Map();
  for (const k of parent.keys()) groups.set(k, find(k));
  return groups;
}
