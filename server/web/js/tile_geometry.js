// Shapes of a tile type, computed from the catalogue's topology alone (edges, half-edges,
// symbols): city outlines, road lines, the monastery, and one anchor point per feature where a
// figure stands. Everything is in the tile's own unrotated frame, 0..100 on both axes, y down.
// No picture of the real tile is known for every set, so the drawing follows the topology: a
// field is whatever is left, and a grid flood fill checks that the fields come out separate.

const C = [50, 50];
const EDGES = ['N', 'E', 'S', 'W'];
const HALVES = ['NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR'];

// The tile border as one parameter t in [0, 4): N from the north-west corner, then E, S, W,
// clockwise. Edge e spans [e, e+1]; half-edge h spans [h/2, h/2 + 1/2].
export function perimeterPoint(t) {
  const u = ((t % 4) + 4) % 4;
  const e = Math.floor(u), f = u - e;
  if (e === 0) return [100 * f, 0];
  if (e === 1) return [100, 100 * f];
  if (e === 2) return [100 - 100 * f, 100];
  return [0, 100 - 100 * f];
}
const edgeMid = (e) => perimeterPoint(e + 0.5);
const lerp = (a, b, k) => [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

function quad(a, q, b, k) {  // point of the quadratic Bezier a-q-b at parameter k
  const m = 1 - k;
  return [m * m * a[0] + 2 * m * k * q[0] + k * k * b[0], m * m * a[1] + 2 * m * k * q[1] + k * k * b[1]];
}

// How far a city's inner border bows towards its own side, by the length of border it leaves
// free: a cap (3 edges free) is shallow, a corner (2) crosses near the middle, a city on three
// edges (1 free) leaves a strip.
function bow(free) {
  const pts = [[1, -0.36], [2, 0.36], [3, 0.58]];
  if (free <= 1) return pts[0][1];
  if (free >= 3) return pts[2][1];
  const i = free < 2 ? 0 : 1;
  const [l0, s0] = pts[i], [l1, s1] = pts[i + 1];
  return s0 + ((free - l0) / (l1 - l0)) * (s1 - s0);
}

function cityRuns(tile, city, owner) {
  const owned = new Set(city.edges.map((e) => EDGES.indexOf(e)));
  if (owned.size === 4) return [{ t0: 0, t1: 4, full: true }];
  const runs = [];
  for (const e of owned) {
    if (owned.has((e + 3) % 4)) continue;  // not the first edge of its run
    let end = e;
    while (owned.has((end + 1) % 4)) end++;
    runs.push({ t0: e, t1: end + 1 });
  }
  for (const r of runs) {
    // Two cities meeting at a corner keep a gap there, so that they read as two.
    const before = owner[(r.t0 + 3) % 4], after = owner[Math.round(r.t1) % 4];
    if (before !== undefined && before !== city.id) r.t0 += 0.12;
    if (after !== undefined && after !== city.id) r.t1 -= 0.12;
  }
  // A city that also reaches an edge owned by another city (Hills & Sheep's HS/CC!.v) takes the
  // half of that edge next to its own edges; the owner keeps the other half.
  if (city.multi_edge) {
    const m = EDGES.indexOf(city.multi_edge);
    for (const r of runs) {
      if ((Math.round(r.t0) + 3) % 4 === m) r.t0 = Math.round(r.t0) - 0.45;
      if (Math.round(r.t1) % 4 === m) r.t1 = Math.round(r.t1) + 0.45;
    }
  }
  return runs.sort((a, b) => a.t0 - b.t0);
}

// Samples of the border from t0 to t1, corners included.
function borderPoints(t0, t1) {
  const pts = [perimeterPoint(t0)];
  for (let c = Math.floor(t0) + 1; c < t1; c++) pts.push(perimeterPoint(c));
  pts.push(perimeterPoint(t1));
  return pts;
}

function cityShape(tile, city, owner, deep) {
  const runs = cityRuns(tile, city, owner);
  if (runs[0].full) {
    const poly = [[0, 0], [100, 0], [100, 100], [0, 100]];
    return { path: 'M0 0H100V100H0Z', poly, inner: [C] };
  }
  let path = '';
  const poly = [];
  const inner = [];  // a point on each inner border, for road gates
  runs.forEach((r, i) => {
    const next = runs[(i + 1) % runs.length];
    const nextT0 = next.t0 + (i + 1 === runs.length ? 4 : 0);
    const pts = borderPoints(r.t0, r.t1);
    path += (i === 0 ? `M${fmt(pts[0])}` : `L${fmt(pts[0])}`) + pts.slice(1).map((p) => `L${fmt(p)}`).join('');
    poly.push(...pts);
    const a = perimeterPoint(r.t1), b = perimeterPoint(nextT0);
    const free = nextT0 - r.t1;
    const m = perimeterPoint(r.t1 + free / 2);
    const s = deep ? -0.06 : bow(free);
    const d = [C[0] + (C[0] - m[0]) * s, C[1] + (C[1] - m[1]) * s];
    const q = [2 * d[0] - (a[0] + b[0]) / 2, 2 * d[1] - (a[1] + b[1]) / 2];
    path += `Q${fmt(q)} ${fmt(b)}`;
    for (let k = 1; k < 16; k++) poly.push(quad(a, q, b, k / 16));
    inner.push({ point: d, away: m });
  });
  return { path: path + 'Z', poly, inner };
}

// A point `by` units beyond a city's inner border, inside the city.
function into(border, by) {
  const dir = [border.point[0] - border.away[0], border.point[1] - border.away[1]];
  const len = Math.hypot(dir[0], dir[1]) || 1;
  return [border.point[0] + (dir[0] / len) * by, border.point[1] + (dir[1] / len) * by];
}

const fmt = (p) => `${round(p[0])} ${round(p[1])}`;
const round = (v) => Math.round(v * 10) / 10;

function bbox(pts, margin = 0) {
  const xs = pts.map((q) => q[0]), ys = pts.map((q) => q[1]);
  return [Math.min(...xs) - margin, Math.min(...ys) - margin, Math.max(...xs) + margin, Math.max(...ys) + margin];
}
const inBox = (p, b) => p[0] >= b[0] && p[1] >= b[1] && p[0] <= b[2] && p[1] <= b[3];

function pointInPolygon(p, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distToSegment(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const k = l2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2));
  return dist(p, [a[0] + k * dx, a[1] + k * dy]);
}
const distToPolyline = (p, pts) => pts.slice(1).reduce((m, b, i) => Math.min(m, distToSegment(p, pts[i], b)), Infinity);

export const ROAD_WIDTH = 10;
const GRID = 40, CELL = 100 / GRID;
const STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1]];

// The geometry of one tile type (memoised by the caller): shapes from the topology, then a grid
// of which feature covers each cell, then the spots where symbols and figures go.
export function tileGeometry(tile) {
  const t = sortFeatures(tile);
  const shapes = cityShapes(t);
  const spikes = citySpikes(t, shapes);
  const { roadShapes, houses } = roadGeometry(t, shapes);
  const kind = coverGrid(t, shapes, spikes, roadShapes, houses);
  const reached = floodFields(t, kind);
  // Cells no half-edge reaches belong to an inner field (FE/CCc, FE/CcCc).
  const inner = t.fields.find((f) => f.halves.length === 0);
  for (let i = 0; i < kind.length; i++) if (kind[i] === null && inner) kind[i] = inner.id;
  const badges = placeBadges(tile, t.byId, kind);
  const depth = depthMap(kind, (p) => badges.some((b) => dist(b.at, p) < 13));
  const anchors = featureAnchors(t, shapes, roadShapes, kind, depth);
  return {
    cities: t.cities.map((c) => ({ id: c.id, path: shapes[c.id].path })),
    spikes: spikes.map((s) => s.path),
    roads: t.roads.map((r) => ({ id: r.id, path: roadShapes[r.id].path })),
    monastery: !!t.monastery,
    houses,
    pennants: pennantSpots(t.cities, anchors, kind, depth),
    badges,
    anchors,
    merged: mergedFields(reached, t.byId),
    _kind: kind,
  };
}

// The tile's features by kind, and who holds each edge and half-edge.
function sortFeatures(tile) {
  const features = tile.features;
  const t = {
    tile,
    byId: Object.fromEntries(features.map((f) => [f.id, f])),
    cities: features.filter((f) => f.type === 'city'),
    roads: features.filter((f) => f.type === 'road'),
    fields: features.filter((f) => f.type === 'field'),
    monastery: features.find((f) => f.type === 'monastery'),
    halfField: {},
    owner: {},
  };
  for (const f of t.fields) for (const h of f.halves) t.halfField[h] = f.id;
  for (const c of t.cities) for (const e of c.edges) t.owner[EDGES.indexOf(e)] = c.id;
  return t;
}

// The city that a feature on edge e faces (the one on the opposite edge), else the first city.
const facingCity = (cities, e) => cities.find((c) => c.edges.includes(EDGES[(e + 2) % 4])) ?? cities[0];

function cityShapes({ tile, cities, halfField, owner }) {
  // Two caps face to face reach the middle when no field joins the two edges between them
  // (HS/CFC.v: the fields north and south are apart; FE/CRCR: four corner fields).
  const fieldsOf = (e) => new Set([HALVES[2 * e], HALVES[2 * e + 1]].map((h) => halfField[h]).filter(Boolean));
  const deepCity = new Set();
  for (const c of cities) {
    if (c.edges.length !== 1) continue;
    const e = EDGES.indexOf(c.edges[0]);
    const opposite = cities.find((o) => o !== c && o.edges.length === 1 && o.edges[0] === EDGES[(e + 2) % 4]);
    if (!opposite) continue;
    const a = fieldsOf((e + 1) % 4), b = fieldsOf((e + 3) % 4);
    if (![...a].some((f) => b.has(f))) deepCity.add(c.id);
  }
  const shapes = {};
  for (const c of cities) shapes[c.id] = cityShape(tile, c, owner, deepCity.has(c.id));
  return shapes;
}

// A field edge split between two fields with no road there (HS/C!.v): the city reaches down
// to it as a spike.
function citySpikes({ tile, cities, halfField }, shapes) {
  const spikes = [];
  for (let e = 0; e < 4; e++) {
    if (tile.sides[e] !== 'F') continue;
    const [h1, h2] = [HALVES[2 * e], HALVES[2 * e + 1]];
    if (!halfField[h1] || !halfField[h2] || halfField[h1] === halfField[h2]) continue;
    const tip = edgeMid(e);
    const city = facingCity(cities, e);
    const base = city ? into(shapes[city.id].inner[0], 6) : C;
    const side = e % 2 === 0 ? [1, 0] : [0, 1];
    const at = (p, w) => [p[0] + side[0] * w, p[1] + side[1] * w];
    const poly = [at(base, -8), at(base, 8), at(tip, 3), at(tip, -3)];
    spikes.push({ city: city?.id, poly, path: `M${poly.map(fmt).join('L')}Z` });
  }
  return spikes;
}

// Each road as a line or a curve (a, q, b) sampled into points, and the houses where roads end.
function roadGeometry({ cities, roads, monastery }, shapes) {
  const through = roads.filter((r) => r.edges.length === 2);
  const deadEnds = roads.filter((r) => r.edges.length === 1);
  const houses = [];
  const roadShapes = {};
  for (const r of roads) {
    const ports = r.edges.map((e) => EDGES.indexOf(e));
    let a, q, b;
    if (ports.length === 2) {
      a = edgeMid(ports[0]); b = edgeMid(ports[1]);
      q = throughRoadBend(ports, monastery);
    } else {
      a = edgeMid(ports[0]);
      q = null;
      if (monastery) b = C;
      else if (through.length) { b = lerp(a, C, 0.7); houses.push(b); }
      else if (deadEnds.length === 1 && cities.length) {
        // A road ending at a city gate runs under the city's inner border (the facing city first).
        b = into(shapes[facingCity(cities, ports[0]).id].inner[0], 8);
        q = C;
        if (Math.abs((a[0] - C[0]) * (b[1] - C[1]) - (a[1] - C[1]) * (b[0] - C[0])) < 1) q = null;
      } else { b = C; if (!houses.length) houses.push(C); }
    }
    const pts = [];
    for (let k = 0; k <= 24; k++) pts.push(q ? quad(a, q, b, k / 24) : lerp(a, b, k / 24));
    const path = q ? `M${fmt(a)}Q${fmt(q)} ${fmt(b)}` : `M${fmt(a)}L${fmt(b)}`;
    roadShapes[r.id] = { path, pts, anchor: q ? quad(a, q, b, ports.length === 2 ? 0.5 : 0.45) : lerp(a, b, 0.45) };
  }
  return { roadShapes, houses };
}

// The control point of a road from edge to edge: the middle, except around a monastery, where a
// curve keeps to the corner it turns round.
function throughRoadBend([p0, p1], monastery) {
  const adjacent = (p0 + 1) % 4 === p1 || (p1 + 1) % 4 === p0;
  const corner = perimeterPoint((p0 + 1) % 4 === p1 ? p1 : p0);
  return monastery && adjacent ? lerp(C, corner, 0.4) : C;
}

const centre = (i) => [(i % GRID) * CELL + CELL / 2, Math.floor(i / GRID) * CELL + CELL / 2];

// The grid: which cells are monastery, building ('#'), city or road; fields are left null.
function coverGrid({ cities, roads, monastery }, shapes, spikes, roadShapes, houses) {
  const MONASTERY_HALF = 15, HOUSE_HALF = 6;
  const kind = new Array(GRID * GRID).fill(null);  // feature id, or '#' for a building
  const boxes = {};
  for (const c of cities) boxes[c.id] = bbox(shapes[c.id].poly);
  for (const r of roads) boxes[r.id] = bbox(roadShapes[r.id].pts, ROAD_WIDTH);
  for (let i = 0; i < kind.length; i++) {
    const p = centre(i);
    if (monastery && Math.abs(p[0] - 50) <= MONASTERY_HALF && Math.abs(p[1] - 50) <= MONASTERY_HALF) { kind[i] = monastery.id; continue; }
    if (houses.some((h) => Math.abs(p[0] - h[0]) <= HOUSE_HALF && Math.abs(p[1] - h[1]) <= HOUSE_HALF)) { kind[i] = '#'; continue; }
    const city = cities.find((c) => inBox(p, boxes[c.id]) && pointInPolygon(p, shapes[c.id].poly)) ??
      cities.find((c) => spikes.some((s) => s.city === c.id && pointInPolygon(p, s.poly)));
    if (city) { kind[i] = city.id; continue; }
    const road = roads.find((r) => inBox(p, boxes[r.id]) && distToPolyline(p, roadShapes[r.id].pts) <= ROAD_WIDTH / 2 + 0.5);
    if (road) kind[i] = road.id;
  }
  return kind;
}

// Fields by flood fill from their half-edges, all at once, so that each free cell goes to the
// nearest field. Returns the pairs of fields ("f|g") whose fills met.
function floodFields({ fields }, kind) {
  const queue = [];
  for (const f of fields) {
    for (const h of f.halves) {
      const hi = HALVES.indexOf(h);
      for (let k = 0.03; k < 0.5; k += 0.02) {
        const [x, y] = perimeterPoint(hi / 2 + k);
        const i = Math.min(GRID - 1, Math.floor(Math.min(x, 99.9) / CELL)) + GRID * Math.min(GRID - 1, Math.floor(Math.min(y, 99.9) / CELL));
        if (kind[i] === null) { kind[i] = f.id; queue.push(i); }
      }
    }
  }
  const reached = {};
  const fieldIds = new Set(fields.map((f) => f.id));
  for (let qi = 0; qi < queue.length; qi++) {
    const i = queue[qi], x = i % GRID, y = Math.floor(i / GRID);
    for (const [dx, dy] of STEPS) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= GRID || ny >= GRID) continue;
      const j = nx + GRID * ny;
      if (kind[j] === null) { kind[j] = kind[i]; queue.push(j); }
      else if (fieldIds.has(kind[j]) && kind[j] !== kind[i]) reached[[kind[i], kind[j]].sort().join('|')] = true;
    }
  }
  return reached;
}

// Fields that touch on the grid although the catalogue says they are apart: the drawing
// would mislead, so the caller is told (tests/web/tile_geometry_test.mjs checks every tile).
function mergedFields(reached, byId) {
  return Object.keys(reached).filter((k) => {
    const [f, g] = k.split('|');
    return byId[f].halves.length && byId[g].halves.length;
  });
}

// Symbols go to the spots (corners first) most covered by field.
function placeBadges(tile, byId, kind) {
  const symbols = tileSymbols(tile);
  const badgeSpots = [[15, 15], [85, 15], [85, 85], [15, 85], [50, 14], [86, 50], [50, 86], [14, 50]];
  const fieldShare = (p) => {
    let n = 0, m = 0;
    for (let i = 0; i < kind.length; i++) {
      if (dist(centre(i), p) > 9) continue;
      m++;
      const type = byId[kind[i]]?.type;
      if (type === 'field') n++;
      else if (type === 'city') n += 0.6;  // better over a city than over a road
    }
    return n / m;
  };
  const badges = [];
  if (symbols.length) {
    const ranked = badgeSpots.map((p, k) => ({ p, score: fieldShare(p) - k * 0.001 })).sort((a, b) => b.score - a.score);
    symbols.forEach((s, k) => badges.push({ symbol: s, at: ranked[k % ranked.length].p }));
  }
  return badges;
}

// Per cell, the steps to the nearest cell of another feature (the tile's border and the
// blocked cells count as other).
function depthMap(kind, blocked) {
  const depth = new Array(GRID * GRID).fill(0);
  const q2 = [];
  for (let i = 0; i < kind.length; i++) {
    const x = i % GRID, y = Math.floor(i / GRID);
    const edge = x === 0 || y === 0 || x === GRID - 1 || y === GRID - 1;
    const differs = STEPS.some(([dx, dy]) => {
      const nx = x + dx, ny = y + dy;
      return nx >= 0 && ny >= 0 && nx < GRID && ny < GRID && kind[nx + GRID * ny] !== kind[i];
    });
    if (edge || differs || blocked(centre(i))) { depth[i] = 1; q2.push(i); }
  }
  for (let qi = 0; qi < q2.length; qi++) {
    const i = q2[qi], x = i % GRID, y = Math.floor(i / GRID);
    for (const [dx, dy] of STEPS) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= GRID || ny >= GRID) continue;
      const j = nx + GRID * ny;
      if (depth[j] === 0 && kind[j] === kind[i]) { depth[j] = depth[i] + 1; q2.push(j); }
    }
  }
  return depth;
}

// Each feature's anchor, where a figure stands: its most inward cell.
function featureAnchors({ cities, roads, fields, monastery }, shapes, roadShapes, kind, depth) {
  const deepest = (id, avoid = []) => {
    let best = null, bestScore = -Infinity;
    for (let i = 0; i < kind.length; i++) {
      if (kind[i] !== id) continue;
      const p = centre(i);
      // Prefer deep cells, then cells nearer the middle of the tile (steadier placement).
      const score = depth[i] * 10 - dist(p, C) * 0.05 - (avoid.some((a) => dist(a, p) < 14) ? 100 : 0);
      if (score > bestScore) { bestScore = score; best = p; }
    }
    return best;
  };
  const anchors = {};
  if (monastery) anchors[monastery.id] = [50, 50];
  for (const r of roads) anchors[r.id] = roadShapes[r.id].anchor;
  for (const c of cities) anchors[c.id] = deepest(c.id) ?? shapes[c.id].inner[0].point;
  for (const f of fields) anchors[f.id] = deepest(f.id, Object.values(anchors)) ?? [50, 50];
  return anchors;
}

// A pennant of each city that has one: a deep cell of the city, away from its anchor.
function pennantSpots(cities, anchors, kind, depth) {
  const pennants = [];
  for (const c of cities) {
    if (!c.pennants) continue;
    const a = anchors[c.id];
    let best = null, bestD = -1;
    for (let i = 0; i < kind.length; i++) {
      if (kind[i] !== c.id || depth[i] < 3) continue;
      const d = dist(centre(i), a);
      if (d > bestD && d < 30) { bestD = d; best = centre(i); }
    }
    pennants.push(best ?? [a[0] + 12, a[1]]);
  }
  return pennants;
}

// The tile-level symbols, in drawing order.
export function tileSymbols(tile) {
  const s = [];
  if (tile.hill) s.push('hill');
  if (tile.vineyard) s.push('vineyard');
  if (tile.festival) s.push('festival');
  if (tile.revolt) s.push(`revolt_${tile.revolt}`);
  if (tile.easter_nest) s.push('nest');
  if (tile.easter_bunny) s.push('bunny');
  return s;
}

// A point of the unrotated tile, turned `rotation` degrees clockwise about the tile's centre.
export function rotatePoint(p, rotation) {
  const a = (rotation * Math.PI) / 180, dx = p[0] - 50, dy = p[1] - 50;
  return [50 + dx * Math.cos(a) - dy * Math.sin(a), 50 + dx * Math.sin(a) + dy * Math.cos(a)];
}
