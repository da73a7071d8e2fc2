// The board: an SVG of the placed tiles, figures, flocks and the bunny, with pan (drag) and
// zoom (wheel, pinch, buttons). On top of it, what the player may choose, as given by the game
// controller from the view's legal moves: open squares, the tile being placed, and markers
// (feature spots, figures, bunny squares). Clicks are reported as 'square' and 'marker' events.
// Markers and figures keep a size on the screen whatever the zoom (a choice is at least 44 px
// across); markers too close to tell apart are drawn as one magnifier that zooms in on them.
import { el, svg, clear } from './dom.js';
import { tileNode, featurePoint, figureShape, markerIcon } from './tiles_svg.js';
import { expansionsOf } from './expansions.js';
import { seatColour } from './names.js';

const UNIT = 100;  // one square, in SVG units
export const TARGET_PX = 44;  // the smallest choice to tap, in CSS pixels
const MAX_SCALE = 3;
// A circle's smallest radius in world units (zoomed in, circles stop shrinking on the tile):
// two spots closer than two of them (and a little) stand apart only when spread at MAX_SCALE.
const MIN_RING = 12;
const apartScale = (d) => (d > 2 * MIN_RING + 2 ? (TARGET_PX + 6) / d : MAX_SCALE);
// Following the game, a tile is never drawn smaller than this (CSS px): a phone's screen (its
// smaller side under 500 px) and a wider one.
const MIN_TILE_PX = { phone: 48, wide: 64 };
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

// Moves markers apart (a few relaxation rounds) until no two centres are closer than `gap`.
function spreadApart(items, gap) {
  const pts = items.map((m) => ({ ...m }));
  for (let round = 0; round < 40; round++) {
    let moved = false;
    for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) {
      const a = pts[i], b = pts[j];
      let dx = b.px - a.px, dy = b.py - a.py;
      let d = Math.hypot(dx, dy);
      if (d >= gap) continue;
      if (d < 0.01) { dx = 1; dy = 0.3; d = Math.hypot(dx, dy); }
      const push = (gap - d) / 2 + 0.01;
      a.px -= (dx / d) * push; a.py -= (dy / d) * push;
      b.px += (dx / d) * push; b.py += (dy / d) * push;
      moved = true;
    }
    if (!moved) break;
  }
  return pts;
}

export class Board extends EventTarget {
  // whole: the board is always fitted whole (the overlay), never followed at a readable size.
  constructor({ whole = false } = {}) {
    super();
    this.alwaysWhole = whole;
    this.defs = svg('defs');
    this.layers = {};
    for (const name of ['tiles', 'outlines', 'squares', 'ghost', 'figures', 'paths', 'markers', 'flash']) this.layers[name] = svg('g', { class: `layer-${name}` });
    this.world = svg('g', { class: 'world' }, Object.values(this.layers));
    this.svg = svg('svg', { class: 'board', role: 'img', 'aria-label': 'the board' }, this.defs, this.world);
    const zoomButton = (label, title, f) => el('button', { type: 'button', title, 'aria-label': title, onclick: f }, label);
    this.node = el('div', { class: 'board-wrap' }, this.svg,
      el('div', { class: 'zoom' },
        zoomButton('+', 'zoom in', () => this.zoomBy(1.25)),
        zoomButton('−', 'zoom out', () => this.zoomBy(0.8)),
        zoomButton('⤢', 'show the whole board', () => this.fit(undefined, undefined, true))));
    this.view = { scale: 0.8, tx: 0, ty: 0 };
    this.userMoved = false;
    this.lastBounds = null;
    this.bottomInset = () => 0;   // how much of the board's bottom the action bar covers, in px
    this.drawnScale = null;
    this.knownTiles = null;       // squares drawn before: a new one is animated
    this.knownFigures = null;
    this.focusKey = null;
    this.installPanZoom();
  }

  // ---- drawing. `ui`: {squares: [{x, y}], selectedSquare, ghost: {x, y, tile, rotation},
  // markers: [{key, px, py, label, selected, kind}], paths: [{points: [[x, y]...], choice}],
  // current: {x, y}}
  render(game, ui = {}) {
    const tiles = new Map();
    for (const t of game.board) tiles.set(`${t.x},${t.y}`, t);
    this.tiles = tiles;

    const L = this.layers;
    clear(L.tiles);
    const seenTiles = new Set();
    for (const t of game.board) {
      const k = `${t.x},${t.y}`;
      seenTiles.add(k);
      const fresh = this.knownTiles && !this.knownTiles.has(k) && !reducedMotion();
      const node = tileNode(this.defs, t.tile, t.rotation, {
        transform: `translate(${t.x * UNIT} ${t.y * UNIT})`, class: 'placed', dataset: { x: t.x, y: t.y, tile: t.tile },
      });
      // The animation runs on an inner group: the outer one keeps its translate.
      L.tiles.append(fresh ? svg('g', { class: 'placed-wrap' }, svg('g', { class: 'fresh-tile', style: `transform-origin:${t.x * UNIT + 50}px ${t.y * UNIT + 50}px` }, node)) : node);
    }
    this.knownTiles = seenTiles;

    clear(L.outlines);
    const last = game.board.length > 1 ? game.board[game.board.length - 1] : null;
    if (last) L.outlines.append(svg('rect', { class: 'last-tile', x: last.x * UNIT + 1.5, y: last.y * UNIT + 1.5, width: UNIT - 3, height: UNIT - 3 }));
    if (ui.current) L.outlines.append(svg('rect', { class: 'current-tile', x: ui.current.x * UNIT + 2, y: ui.current.y * UNIT + 2, width: UNIT - 4, height: UNIT - 4 }));

    clear(L.squares);
    for (const s of ui.squares ?? []) {
      const selected = ui.selectedSquare && ui.selectedSquare.x === s.x && ui.selectedSquare.y === s.y;
      const rect = svg('rect', {
        class: `legal-square${selected ? ' selected' : ''}`, x: s.x * UNIT + 3, y: s.y * UNIT + 3, width: UNIT - 6, height: UNIT - 6, rx: 6,
        dataset: { x: s.x, y: s.y },
      }, svg('title', { text: `(${s.x}, ${s.y})` }));
      // Zoomed out below a target's size, a tap on a square zooms in there first.
      rect.addEventListener('click', () => {
        if ((UNIT - 6) * this.view.scale < TARGET_PX) { this.centreOn(s.x * UNIT + 50, s.y * UNIT + 50, (TARGET_PX * 1.6) / UNIT); this.userMoved = true; return; }
        this.emit('square', { x: s.x, y: s.y });
      });
      L.squares.append(rect);
    }

    clear(L.ghost);
    if (ui.ghost) {
      L.ghost.append(tileNode(this.defs, ui.ghost.tile, ui.ghost.rotation, {
        class: 'ghost', transform: `translate(${ui.ghost.x * UNIT} ${ui.ghost.y * UNIT})`, dataset: { rotation: ui.ghost.rotation },
      }));
    }

    clear(L.paths);
    for (const p of ui.paths ?? []) {
      const pts = p.points.map(([x, y]) => `${x * UNIT + 50},${y * UNIT + 50}`).join(' ');
      L.paths.append(svg('polyline', { class: `bunny-path${p.choice ? ' choice' : ''}`, points: pts }));
    }

    // The last move's pieces are marked: the tile placed last (outlined) and every figure that
    // came since it was placed (a ring), until the next tile.
    if (game.board.length !== this.turnBase?.tiles) this.turnBase = { tiles: game.board.length, figures: this.knownFigures };
    this.game = game;
    this.ui = ui;
    this.autoFit(game, ui);
    this.drawDynamic(true);
  }

  // Figures and markers, whose size depends on the zoom: drawn again when it changes.
  drawDynamic(force = false) {
    if (!this.game) return;
    const scale = this.view.scale;
    if (!force && this.drawnScale && Math.abs(Math.log(scale / this.drawnScale)) < 0.04) return;
    this.drawnScale = scale;
    // Tile symbols (hill, vineyard, nest...) keep about 14 px zoomed out.
    this.svg.style.setProperty('--badge-grow', String(Math.min(1.8, Math.max(1, this.px(14) / 20))));
    this.drawFigures(this.game);
    this.drawMarkers(this.ui.markers ?? []);
  }

  // World units that make `px` screen pixels at the present zoom.
  px(n) { return n / this.view.scale; }

  drawMarkers(markers) {
    const L = this.layers;
    clear(L.markers);
    const r = Math.max(MIN_RING, this.px(TARGET_PX / 2 + 1));
    // Markers closer than one target: gathered into clusters (a magnifier), greedily.
    let clusters = [];
    for (const m of markers) {
      const c = clusters.find((k) => k.items.some((o) => Math.hypot(o.px - m.px, o.py - m.py) < 2 * r));
      if (c) c.items.push(m); else clusters.push({ items: [m] });
    }
    // A magnifier stands at its markers' centre: merged with anything it would cover there.
    const centre = (c) => [c.items.reduce((a, m) => a + m.px, 0) / c.items.length, c.items.reduce((a, m) => a + m.py, 0) / c.items.length];
    for (let merged = true; merged && this.view.scale < MAX_SCALE * 0.99;) {
      merged = false;
      for (let i = 0; i < clusters.length && !merged; i++) for (let j = i + 1; j < clusters.length && !merged; j++) {
        const [ax, ay] = centre(clusters[i]), [bx, by] = centre(clusters[j]);
        if (Math.hypot(ax - bx, ay - by) < 2 * r + this.px(2)) {
          clusters[i].items.push(...clusters[j].items);
          clusters = clusters.filter((_, k) => k !== j);
          merged = true;
        }
      }
    }
    for (const c of clusters) {
      if (c.items.length === 1) { L.markers.append(this.markerNode(c.items[0], r)); continue; }
      if (this.view.scale >= MAX_SCALE * 0.99) {
        // Zoomed in all the way and still too close: pushed apart a little around their spots.
        for (const m of spreadApart(c.items, 2 * r + this.px(3))) L.markers.append(this.markerNode(m, r));
        continue;
      }
      const cx = c.items.reduce((a, m) => a + m.px, 0) / c.items.length;
      const cy = c.items.reduce((a, m) => a + m.py, 0) / c.items.length;
      const g = svg('g', {
        class: 'marker marker-cluster', transform: `translate(${cx} ${cy})`, role: 'button',
        'aria-label': `${c.items.length} choices here: zoom in`, dataset: { keys: c.items.map((m) => m.keys ?? m.key).join(' '), count: c.items.length },
      }, svg('title', { text: `${c.items.length} choices: ${c.items.map((m) => m.label).join(' / ')}` }),
      svg('circle', { class: 'ring', r }),
      svg('g', { transform: `scale(${r / 12})` }, svg('circle', { class: 'lens', cx: -2, cy: -2, r: 5.5 }), svg('path', { class: 'lens-handle', d: 'M2 2L7 7' }),
        svg('text', { class: 'marker-count', x: 8, y: -5, 'text-anchor': 'middle', text: String(c.items.length) })));
      g.addEventListener('click', (e) => { e.stopPropagation(); this.magnify(c.items); });
      L.markers.append(g);
    }
  }

  markerNode(m, r) {
    const k = r / 11;
    const figs = m.figures ?? [];
    const icon = figs.length
      ? figs.map((f, i) => svg('g', { transform: `translate(${(i - (figs.length - 1) / 2) * 9} 0)` }, figureShape(f, m.colour ?? '#888', { scale: figs.length > 1 ? 0.55 : 0.7 })))
      : markerIcon(m.kind);
    const g = svg('g', {
      class: `marker marker-${m.kind ?? 'choice'}${m.selected ? ' selected' : ''}`, transform: `translate(${m.px} ${m.py})`,
      dataset: { key: m.key, keys: m.keys ?? m.key, count: m.count ?? 1 }, role: 'button', 'aria-label': m.label,
    }, svg('title', { text: m.label }), svg('circle', { class: 'ring', r }),
    svg('g', { transform: `scale(${k})` }, icon,
      (m.count ?? 1) > 1 ? [svg('circle', { class: 'count-bg', cx: 8, cy: -8, r: 4.5 }), svg('text', { class: 'marker-count', x: 8, y: -6, 'text-anchor': 'middle', text: String(m.count) })] : null));
    g.addEventListener('click', (e) => { e.stopPropagation(); this.emit('marker', { key: m.key }); });
    return g;
  }

  // Zooms in on markers until they stand apart (at most MAX_SCALE).
  magnify(items) {
    let d = Infinity;
    for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) d = Math.min(d, Math.hypot(items[i].px - items[j].px, items[i].py - items[j].py));
    // One tap is enough: straight to the zoom where they all stand apart (no magnifier in it).
    const scale = Math.min(MAX_SCALE, Math.max(this.view.scale * 1.5, apartScale(d)));
    const cx = items.reduce((a, m) => a + m.px, 0) / items.length, cy = items.reduce((a, m) => a + m.py, 0) / items.length;
    this.centreOn(cx, cy, scale);
    this.userMoved = true;
  }

  centreOn(wx, wy, scale) {
    const [w, h] = this.size();
    const usable = h - this.bottomInset();
    this.view = { scale, tx: w / 2 - wx * scale, ty: usable / 2 - wy * scale };
    this.apply();
  }

  // Where a feature's spot is on the screen (client px), or null when off the board's view.
  screenPoint(x, y, feature) {
    const t = this.tiles?.get(`${x},${y}`);
    if (!t) return null;
    const [px, py] = featurePoint(x, y, t.tile, t.rotation, feature);
    const r = this.svg.getBoundingClientRect();
    const sx = r.left + px * this.view.scale + this.view.tx, sy = r.top + py * this.view.scale + this.view.ty;
    return sx >= r.left && sx <= r.right && sy >= r.top && sy <= r.bottom ? [sx, sy] : null;
  }

  // A square shown briefly (a log line clicked).
  locate({ x, y }) {
    const L = this.layers;
    clear(L.flash);
    L.flash.append(svg('rect', { class: 'flash', x: x * UNIT - 4, y: y * UNIT - 4, width: UNIT + 8, height: UNIT + 8, rx: 8 }));
    const [w, h] = this.size();
    const s = this.view.scale;
    const sx = x * UNIT * s + this.view.tx, sy = y * UNIT * s + this.view.ty;
    if (sx < 0 || sy < 0 || sx + UNIT * s > w || sy + UNIT * s > h - this.bottomInset()) { this.centreOn(x * UNIT + 50, y * UNIT + 50, s); this.userMoved = true; }
    setTimeout(() => clear(L.flash), 1600);
  }

  drawFigures(game) {
    const L = this.layers;
    clear(L.figures);
    // Figures keep a readable size zoomed out: at least ~16 px tall.
    const grow = Math.min(2.6, Math.max(1, this.px(16) / 20));
    const seenFigures = new Set();
    const seen = new Map();  // several figures on one spot (Synod, Change Position) fan out
    for (const f of game.figures ?? []) {
      const t = this.tiles.get(`${f.x},${f.y}`);
      if (!t) continue;
      const [px, py] = featurePoint(f.x, f.y, t.tile, t.rotation, f.feature);
      const key = `${f.x},${f.y},${f.feature}`;
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      const figKey = `${f.seat},${key},${f.figure},${n}`;
      seenFigures.add(figKey);
      const fresh = this.knownFigures && !this.knownFigures.has(figKey) && !reducedMotion();
      // A follower in a field is a farmer: it lies down, as on the real board.
      const lying = f.figure !== 'shepherd' && /^field/.test(f.feature);
      const latest = !!this.turnBase?.figures && !this.turnBase.figures.has(figKey);
      const g = svg('g', { transform: `translate(${px + n * 9 * grow} ${py - n * 3 * grow})`, class: `placed-figure${latest ? ' last-figure' : ''}`, dataset: { seat: f.seat, x: f.x, y: f.y, feature: f.feature, pose: lying ? 'lying' : 'standing' } },
        svg('title', { text: `${game.players?.[f.seat]?.name ?? `seat ${f.seat}`}: ${lying ? 'farmer' : f.figure === 'meeple' ? 'follower' : f.figure}${f.protected ? ', protected' : ''}` }),
        latest ? svg('circle', { class: 'last-figure-ring', r: 13 * grow, cy: -4 * grow }) : null,
        svg('g', { class: fresh ? 'fresh-figure' : null }, figureShape(f.figure, seatColour(f.seat), { protectedMark: !!f.protected, scale: 1.1 * grow, lying })));
      L.figures.append(g);
    }
    this.knownFigures = seenFigures;
    const board = { tiles: this.tiles, layers: L, grow, unit: UNIT };
    for (const x of expansionsOf(game)) x.drawFigures?.(game, board);
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  // ---- pan and zoom
  apply() {
    const { scale, tx, ty } = this.view;
    this.world.setAttribute('transform', `translate(${tx} ${ty}) scale(${scale})`);
    this.drawDynamic();  // only when the zoom changed enough to matter
  }

  size() {
    const r = this.svg.getBoundingClientRect();
    return [r.width || 800, r.height || 600];
  }

  zoomBy(factor, cx, cy) {
    const [w, h] = this.size();
    const x = cx ?? w / 2, y = cy ?? h / 2;
    const v = this.view;
    const scale = Math.min(MAX_SCALE, Math.max(0.08, v.scale * factor));
    const k = scale / v.scale;
    v.tx = x - (x - v.tx) * k;
    v.ty = y - (y - v.ty) * k;
    v.scale = scale;
    this.userMoved = true;
    this.apply();
  }

  bounds(game, ui) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const add = (x, y) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); };
    for (const t of game.board) add(t.x, t.y);
    for (const s of ui?.squares ?? []) add(s.x, s.y);
    return [x0, y0, x1 + 1, y1 + 1];
  }

  // The whole board in view (`whole`, the ⤢ button), or, following the game, as much of it as
  // keeps tiles readable (MIN_TILE_PX) around the last tile placed: a large board pans.
  fit(game = this.lastGame, ui = this.lastUi, whole = this.alwaysWhole) {
    if (!game) return;
    const [x0, y0, x1, y1] = this.bounds(game, ui);
    const [w, h] = this.size();
    // Leave room for the action bar along the bottom (as tall as it is now).
    const bottom = Math.min(this.bottomInset(), h * 0.6);
    const all = Math.min(w / ((x1 - x0 + 0.6) * UNIT), (h - bottom) / ((y1 - y0 + 0.6) * UNIT));
    let scale = Math.min(1.2, Math.max(0.08, all));
    if (!whole) scale = Math.max(scale, (Math.min(w, h) < 500 ? MIN_TILE_PX.phone : MIN_TILE_PX.wide) / UNIT);
    // Open squares are targets too: never smaller than one to tap (the board then pans).
    if (ui?.squares?.length) scale = Math.max(scale, (TARGET_PX + 2) / (UNIT - 6));  // a square is drawn 6 units smaller
    this.view = {
      scale,
      tx: w / 2 - ((x0 + x1) / 2) * UNIT * scale,
      ty: (h - bottom) / 2 - ((y0 + y1) / 2) * UNIT * scale,
    };
    const last = game.board[game.board.length - 1];
    if (last && scale > all * 1.001) {
      // Too big to show whole: centre on the last tile placed, or the open squares nearest to it.
      const near = ui?.squares?.length ? ui.squares.reduce((b, s) => (Math.hypot(s.x - last.x, s.y - last.y) < Math.hypot(b.x - last.x, b.y - last.y) ? s : b), ui.squares[0]) : last;
      this.view.tx = w / 2 - (near.x + 0.5) * UNIT * scale;
      this.view.ty = (h - bottom) / 2 - (near.y + 0.5) * UNIT * scale;
    }
    this.userMoved = false;
    this.apply();
  }

  // Zooms to the decision: the markers of a new decision, so that each is a target apart.
  focus(ui) {
    const ms = ui.markers ?? [];
    if (!ms.length) return false;
    const [w, h] = this.size();
    const usable = h - Math.min(this.bottomInset(), h * 0.6);
    const xs = ms.map((m) => m.px), ys = ms.map((m) => m.py);
    const [bx0, bx1, by0, by1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    let d = Infinity;
    for (let i = 0; i < ms.length; i++) for (let j = i + 1; j < ms.length; j++) d = Math.min(d, Math.hypot(ms[i].px - ms[j].px, ms[i].py - ms[j].py));
    const apart = ms.length > 1 ? apartScale(d) : 0;
    const whole = Math.min(w / (bx1 - bx0 + 0.9 * UNIT), usable / (by1 - by0 + 0.9 * UNIT));
    // As close as needed for the markers to stand apart, if they all fit; else they all fit
    // and the close ones become magnifiers.
    const scale = Math.min(MAX_SCALE, apart <= whole ? Math.max(apart, Math.min(whole, this.view.scale)) : whole);
    if (scale <= this.view.scale * 1.02 && this.allVisible(ms, usable)) return false;
    this.centreOn((bx0 + bx1) / 2, (by0 + by1) / 2, Math.max(scale, 0.08));
    return true;
  }

  allVisible(ms, usable) {
    const [w] = this.size();
    const { scale, tx, ty } = this.view;
    return ms.every((m) => { const x = m.px * scale + tx, y = m.py * scale + ty; return x > 20 && x < w - 20 && y > 20 && y < usable - 20; });
  }

  // Follows the game while the player has not moved the view: refits when the board grows.
  autoFit(game, ui) {
    this.lastGame = game;
    this.lastUi = ui;
    const b = this.bounds(game, ui).join(',');
    const focusKey = ui.focus ? JSON.stringify((ui.markers ?? []).map((m) => m.key)) : null;
    const deciding = !!(ui.squares?.length || ui.markers?.length);
    if (focusKey && focusKey !== this.focusKey) {
      if (b !== this.lastBounds && !this.userMoved) this.fit(game, ui);
      this.focus(ui);
    } else if (!deciding && this.deciding) this.fit(game, ui);  // your decision is over: the whole board again
    else if (game.status === 'finished' && this.lastStatus !== 'finished') this.fit(game, ui);
    else if (b !== this.lastBounds && !this.userMoved) this.fit(game, ui);
    this.focusKey = focusKey;
    this.lastBounds = b;
    this.lastStatus = game.status;
    this.deciding = deciding;
  }

  installPanZoom() {
    const pointers = new Map();
    let drag = null, pinch = null, suppressClick = false;
    const s = this.svg;
    const local = (e) => { const r = s.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };

    s.addEventListener('pointerdown', (e) => {
      pointers.set(e.pointerId, local(e));
      if (pointers.size === 1) suppressClick = false;
      if (pointers.size === 1) drag = { start: local(e), tx: this.view.tx, ty: this.view.ty, moved: false, id: e.pointerId };
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), scale: this.view.scale };
        drag = null;
      }
    });
    s.addEventListener('pointermove', (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, local(e));
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const target = pinch.scale * (d / pinch.d);
        this.zoomBy(target / this.view.scale, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        suppressClick = true;
        return;
      }
      if (!drag) return;
      const [x, y] = local(e);
      const dx = x - drag.start[0], dy = y - drag.start[1];
      // A small movement is still a click (a finger is never perfectly still).
      if (!drag.moved && Math.hypot(dx, dy) < 6) return;
      if (!drag.moved) { drag.moved = true; s.setPointerCapture(e.pointerId); s.classList.add('dragging'); }
      this.view.tx = drag.tx + dx;
      this.view.ty = drag.ty + dy;
      this.userMoved = true;
      this.apply();
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      if (drag?.moved) suppressClick = true;
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) drag = null;
      s.classList.remove('dragging');
    };
    s.addEventListener('pointerup', end);
    s.addEventListener('pointercancel', end);
    // The click that ends a drag is not a choice.
    s.addEventListener('click', (e) => {
      if (suppressClick) { e.stopPropagation(); e.preventDefault(); suppressClick = false; }
    }, true);
    s.addEventListener('wheel', (e) => {
      e.preventDefault();
      const [x, y] = local(e);
      this.zoomBy(Math.exp(-e.deltaY * 0.0015), x, y);
    }, { passive: false });
    new ResizeObserver(() => { if (!this.userMoved) this.fit(); }).observe(s);
  }
}
