// Tiles as SVG: the catalogue served by the server (/api/tiles, the engine's own data), one
// <symbol> per tile type drawn from its geometry (tile_geometry.js), and the small pictures:
// symbols of the expansions (hill, vineyard, festival, revolt, nest, bunny), pennants,
// figures (meeple, shepherd), sheep.
import { svg } from './dom.js';
import { tileGeometry, rotatePoint } from './tile_geometry.js';

let catalogue = null;  // id -> tile type
const geometries = new Map();

export async function loadCatalogue() {
  if (catalogue) return catalogue;
  const res = await fetch('/api/tiles');
  if (!res.ok) throw new Error(`/api/tiles: HTTP ${res.status}`);
  const data = await res.json();
  catalogue = Object.fromEntries(data.tiles.map((t) => [t.id, t]));
  return catalogue;
}
export const tileType = (id) => catalogue?.[id] ?? null;

export function geometry(id) {
  if (!geometries.has(id)) geometries.set(id, tileGeometry(tileType(id)));
  return geometries.get(id);
}

// Where a figure on `feature` of a tile stands, in board units (100 per square).
export function featurePoint(x, y, tileId, rotation, feature) {
  const local = geometry(tileId).anchors[feature] ?? [50, 50];
  const [px, py] = rotatePoint(local, rotation);
  return [x * 100 + px, y * 100 + py];
}

export const symbolId = (tileId) => `tile-${tileId.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0)}`)}`;

// Adds the <symbol> of a tile type to `defs` once.
export function ensureSymbol(defs, tileId) {
  const id = symbolId(tileId);
  if (defs.querySelector(`#${CSS.escape(id)}`)) return id;
  const g = geometry(tileId);
  ensurePatterns(defs);
  const parts = [svg('rect', { class: 't-field', width: 100, height: 100 }), svg('rect', { class: 't-grass', width: 100, height: 100, fill: 'url(#pat-grass)' })];
  for (const r of g.roads) parts.push(svg('path', { class: 't-road-edge', d: r.path }), svg('path', { class: 't-road', d: r.path }));
  // A city: its stone wall (a thick dark line with a lighter crenellated top), then the town
  // inside: a warm ground covered with red roofs.
  for (const d of [...g.cities.map((c) => c.path), ...g.spikes]) {
    // The wall is drawn inside the tile only: along the tile's own border it would read as a
    // seam between two tiles of one city.
    parts.push(svg('path', { class: 't-wall', d, 'clip-path': 'url(#clip-inset)' }), svg('path', { class: 't-city', d }), svg('path', { class: 't-roofs', d, fill: 'url(#pat-roofs)' }),
      svg('path', { class: 't-crenel', d, 'clip-path': 'url(#clip-inset)' }));
  }
  for (const p of g.pennants) parts.push(pennant(p));
  parts.push(svg('rect', { class: 't-edge', width: 100, height: 100 }));
  defs.append(svg('symbol', { id, viewBox: '0 0 100 100', width: 100, height: 100 }, parts));
  return id;
}

// The textures tiles share: grass strokes in fields, rows of red roofs in cities.
function ensurePatterns(defs) {
  if (defs.querySelector('#pat-roofs')) return;
  defs.append(
    svg('pattern', { id: 'pat-roofs', width: 16, height: 14, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(-8)' },
      svg('path', { class: 'p-roof', d: 'M1 7L5 3L9 7Z' }), svg('rect', { class: 'p-house', x: 2, y: 7, width: 6, height: 4 }),
      svg('path', { class: 'p-roof', d: 'M9 13L12.5 9.5L16 13Z' })),
    svg('clipPath', { id: 'clip-inset' }, svg('rect', { x: 4, y: 4, width: 92, height: 92 })),
    svg('pattern', { id: 'pat-grass', width: 12, height: 12, patternUnits: 'userSpaceOnUse' },
      svg('path', { class: 'p-grass', d: 'M2 9l1-3M3 9l1-2.5M8 4l1-3M9 4l1-2.5' })));
}

// Buildings stand upright whatever the tile's rotation: drawn outside the turned symbol.
function house([x, y]) {
  return svg('g', { transform: `translate(${x} ${y})` },
    svg('rect', { class: 't-house', x: -5, y: -3, width: 10, height: 8 }),
    svg('path', { class: 't-roof', d: 'M-7 -2L0 -8L7 -2Z' }));
}

function monastery() {
  return svg('g', { class: 't-monastery' },
    svg('rect', { class: 't-cloister', x: 37, y: 40, width: 26, height: 22 }),
    svg('path', { class: 't-roof', d: 'M34 42L50 29L66 42Z' }),
    svg('rect', { class: 't-door', x: 47, y: 52, width: 6, height: 10 }),
    svg('path', { class: 't-cross', d: 'M50 20V29M46.5 23.5H53.5' }));
}

// A pennant: a blue and white shield, as on the printed tiles.
function pennant([x, y]) {
  return svg('g', { class: 't-pennant-shield' },
    svg('path', { class: 't-pennant', d: `M${x - 7} ${y - 7}H${x + 7}V${y + 1}C${x + 7} ${y + 5} ${x} ${y + 9} ${x} ${y + 9}C${x} ${y + 9} ${x - 7} ${y + 5} ${x - 7} ${y + 1}Z` }),
    svg('path', { class: 't-pennant-mark', d: `M${x - 3.5} ${y - 3}L${x} ${y + 3}L${x + 3.5} ${y - 3}` }));
}

// A tile drawn whole: one <use> of its symbol, turned, plus its buildings and symbols upright.
export function tileNode(defs, tileId, rotation, attrs = {}) {
  const id = ensureSymbol(defs, tileId);
  const g = svg('g', attrs,
    svg('use', { href: `#${id}`, width: 100, height: 100, transform: rotation ? `rotate(${rotation} 50 50)` : null }));
  const geo = geometry(tileId);
  for (const h of geo.houses) g.append(house(rotatePoint(h, rotation)));
  if (geo.monastery) g.append(monastery());
  for (const b of geo.badges) {
    const [bx, by] = rotatePoint(b.at, rotation);
    g.append(badge(b.symbol, bx, by));
  }
  return g;
}

// A tile alone in its own small <svg> (the drawn tile, Take 2's choice).
export function tilePicture(tileId, rotation = 0, size = 96) {
  const defs = svg('defs');
  return svg('svg', { class: 'tile-picture', viewBox: '-2 -2 104 104', width: size, height: size, role: 'img', 'aria-label': tileId },
    defs, tileNode(defs, tileId, rotation));
}

const BADGE_TITLES = {
  hill: 'hill', vineyard: 'vineyard', festival: 'Festival tile', nest: 'Easter nest', bunny: 'Easter bunny tile',
  revolt_city: 'revolt against cities', revolt_road: 'revolt against roads', revolt_monastery: 'revolt against monasteries',
};

export function badge(symbol, x, y) {
  const inner = svg('g', { class: 'badge-inner' }, svg('title', { text: BADGE_TITLES[symbol] ?? symbol }), svg('circle', { class: 'badge-bg', r: 10 }));
  const outer = svg('g', { class: `badge badge-${symbol.replace(/_.*/, '')}`, transform: `translate(${x} ${y})` }, inner);
  const g = inner;  // the symbol's drawing goes inside: the board grows it when zoomed out
  switch (symbol) {
    case 'hill':
      g.append(svg('path', { class: 'i-hill', d: 'M-8 5Q-3 -9 0 -5Q4 -10 8 5Z' }));
      break;
    case 'vineyard':
      for (const [cx, cy] of [[-3, -3], [3, -3], [0, 0], [-3, 3], [3, 3], [0, 6]]) g.append(svg('circle', { class: 'i-grape', cx, cy: cy - 1, r: 2.6 }));
      g.append(svg('path', { class: 'i-stem', d: 'M0 -6L2 -9' }));
      break;
    case 'festival':
      g.append(svg('path', { class: 'i-flag-pole', d: 'M-5 7V-8' }),
        svg('path', { class: 'i-flag', d: 'M-5 -8L7 -5L-5 -1Z' }),
        svg('circle', { class: 'i-confetti-a', cx: 4, cy: 4, r: 1.5 }), svg('circle', { class: 'i-confetti-b', cx: 1, cy: 7, r: 1.2 }));
      break;
    case 'nest':
      g.append(svg('path', { class: 'i-nest', d: 'M-8 1Q0 10 8 1Z' }),
        svg('ellipse', { class: 'i-egg-a', cx: -3, cy: -1, rx: 2.6, ry: 3.4 }),
        svg('ellipse', { class: 'i-egg-b', cx: 3, cy: -1.5, rx: 2.6, ry: 3.4 }));
      break;
    case 'bunny':
      g.append(bunnyShape(0.8));
      break;
    default: {  // revolt_city, revolt_road, revolt_monastery: a diamond with the kind's letter
      const letter = { revolt_city: 'C', revolt_road: 'R', revolt_monastery: 'M' }[symbol] ?? '?';
      g.append(svg('path', { class: 'i-diamond', d: 'M0 -9L8 0L0 9L-8 0Z' }),
        svg('text', { class: 'i-letter', x: 0, y: 3.5, 'text-anchor': 'middle', text: letter }));
    }
  }
  return outer;
}

export function bunnyShape(scale = 1) {
  return svg('g', { class: 'i-bunny', transform: `scale(${scale})` },
    svg('ellipse', { cx: -3, cy: -7, rx: 2, ry: 5.5, transform: 'rotate(-12 -3 -7)' }),
    svg('ellipse', { cx: 3, cy: -7, rx: 2, ry: 5.5, transform: 'rotate(12 3 -7)' }),
    svg('circle', { cx: 0, cy: 2, r: 6.5 }),
    svg('circle', { class: 'i-eye', cx: -2.3, cy: 1, r: 0.9 }),
    svg('circle', { class: 'i-eye', cx: 2.3, cy: 1, r: 0.9 }));
}

// The classic follower silhouette, centred on (0, 0), about 20 units tall.
const MEEPLE = 'M0 -10C2.8 -10 4 -8 4 -6C4 -4.5 3.4 -3.6 2.6 -3L9 -0.5C10.4 0.1 10 2.4 8.5 2.4L4.5 2L8 9C8.4 10 7.5 10 7 10L1.5 10L0 7L-1.5 10L-7 10C-7.5 10 -8.4 10 -8 9L-4.5 2L-8.5 2.4C-10 2.4 -10.4 0.1 -9 -0.5L-2.6 -3C-3.4 -3.6 -4 -4.5 -4 -6C-4 -8 -2.8 -10 0 -10Z';

// `lying`: a farmer, lying on its back in its field.
export function figureShape(figure, colour, { protectedMark = false, scale = 1, lying = false } = {}) {
  const turn = lying ? ' rotate(-90) scale(0.95 1.1)' : '';
  const g = svg('g', { class: `figure figure-${figure}${lying ? ' lying' : ''}`, transform: `scale(${scale})${turn}` });
  if (figure === 'shepherd') {
    g.append(svg('path', { class: 'fig-body', fill: colour, d: 'M0 -9A3.6 3.6 0 1 1 0 -1.8A3.6 3.6 0 1 1 0 -9ZM-6 10L-3.5 -0.5H3.5L6 10Z' }),
      svg('path', { class: 'fig-crook', d: 'M8 10V-6A3 3 0 0 0 2 -6' }));
  } else {
    g.append(svg('path', { class: 'fig-body', fill: colour, d: MEEPLE }));
  }
  if (protectedMark) {
    g.append(svg('path', { class: 'fig-shield', d: 'M5 -11H13V-6C13 -2 9 0 9 0C9 0 5 -2 5 -6Z' }));
  }
  return g;
}

export function sheepShape(count) {
  return svg('g', { class: 'sheep' },
    svg('ellipse', { class: 'sheep-wool', rx: 8, ry: 6 }),
    svg('circle', { class: 'sheep-head', cx: 8, cy: -3, r: 3 }),
    svg('text', { class: 'sheep-count', x: 0, y: 3, 'text-anchor': 'middle', text: String(count) }));
}

// What a marker on the board will do, as a small picture.
export function markerIcon(kind) {
  switch (kind) {
    case 'protect':
      return svg('path', { class: 'mk-shield', d: 'M-5 -6H5V-1C5 3 0 6 0 6C0 6 -5 3 -5 -1Z' });
    case 'return_figure':
      return svg('path', { class: 'mk-arrow', d: 'M4 5V-1A4 4 0 0 0 -4 -1M-4 -1L-6.5 -4M-4 -1L-1 -3.5' });
    case 'open_gift':
      return svg('g', { class: 'mk-gift' }, svg('rect', { x: -5, y: -3, width: 10, height: 8 }), svg('path', { d: 'M0 -3V5M-5 0H5M0 -3L-3 -6M0 -3L3 -6' }));
    case 'bunny':  // where the bunny lands: an arrow down onto a spot (not the nest's badge)
      return svg('g', { class: 'mk-land' }, svg('ellipse', { cx: 0, cy: 5, rx: 5, ry: 1.8 }), svg('path', { d: 'M0 -6V2.5M-3 -0.5L0 2.5L3 -0.5' }));
    default:
      return svg('path', { class: 'plus', d: 'M-5 0H5M0 -5V5' });
  }
}
