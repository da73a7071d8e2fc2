// The board: an SVG of the placed tiles, figures, flocks and the bunny, with pan (drag) and
// zoom (wheel, pinch, buttons). On top of it, what the player may choose, as given by the game
// controller from the view's legal moves: open squares, the tile being placed, and markers
// (feature spots, figures, bunny squares). Clicks are reported as 'square' and 'marker' events.
import { el, svg, clear } from './dom.js';
import { tileNode, featurePoint, figureShape, sheepShape, bunnyShape, markerIcon } from './tiles_svg.js';
import { seatColour } from './names.js';

const UNIT = 100;  // one square, in SVG units

export class Board extends EventTarget {
  constructor() {
    super();
    this.defs = svg('defs');
    this.layers = {};
    for (const name of ['tiles', 'outlines', 'squares', 'ghost', 'figures', 'paths', 'markers']) this.layers[name] = svg('g', { class: `layer-${name}` });
    this.world = svg('g', { class: 'world' }, Object.values(this.layers));
    this.svg = svg('svg', { class: 'board', role: 'img', 'aria-label': 'the board' }, this.defs, this.world);
    const zoomButton = (label, title, f) => el('button', { type: 'button', title, 'aria-label': title, onclick: f }, label);
    this.node = el('div', { class: 'board-wrap' }, this.svg,
      el('div', { class: 'zoom' },
        zoomButton('+', 'zoom in', () => this.zoomBy(1.25)),
        zoomButton('−', 'zoom out', () => this.zoomBy(0.8)),
        zoomButton('⤢', 'show the whole board', () => this.fit())));
    this.view = { scale: 0.8, tx: 0, ty: 0 };
    this.userMoved = false;
    this.lastBounds = null;
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
    for (const t of game.board) {
      L.tiles.append(tileNode(this.defs, t.tile, t.rotation, {
        transform: `translate(${t.x * UNIT} ${t.y * UNIT})`, class: 'placed', dataset: { x: t.x, y: t.y, tile: t.tile },
      }));
    }

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
      rect.addEventListener('click', () => this.emit('square', { x: s.x, y: s.y }));
      L.squares.append(rect);
    }

    clear(L.ghost);
    if (ui.ghost) {
      L.ghost.append(tileNode(this.defs, ui.ghost.tile, ui.ghost.rotation, {
        class: 'ghost', transform: `translate(${ui.ghost.x * UNIT} ${ui.ghost.y * UNIT})`, dataset: { rotation: ui.ghost.rotation },
      }));
    }

    this.drawFigures(game);

    clear(L.paths);
    for (const p of ui.paths ?? []) {
      const pts = p.points.map(([x, y]) => `${x * UNIT + 50},${y * UNIT + 50}`).join(' ');
      L.paths.append(svg('polyline', { class: `bunny-path${p.choice ? ' choice' : ''}`, points: pts }));
    }

    clear(L.markers);
    for (const m of ui.markers ?? []) {
      const g = svg('g', {
        class: `marker marker-${m.kind ?? 'choice'}${m.selected ? ' selected' : ''}`, transform: `translate(${m.px} ${m.py})`,
        dataset: { key: m.key }, role: 'button', 'aria-label': m.label,
      }, svg('title', { text: m.label }), svg('circle', { class: 'ring', r: 11 }),
      m.figure ? figureShape(m.figure, m.colour ?? '#888', { scale: 0.7 }) : markerIcon(m.kind));
      g.addEventListener('click', (e) => { e.stopPropagation(); this.emit('marker', { key: m.key }); });
      L.markers.append(g);
    }

    this.autoFit(game, ui);
  }

  drawFigures(game) {
    const L = this.layers;
    clear(L.figures);
    const seen = new Map();  // several figures on one spot (Synod, Change Position) fan out
    for (const f of game.figures ?? []) {
      const t = this.tiles.get(`${f.x},${f.y}`);
      if (!t) continue;
      const [px, py] = featurePoint(f.x, f.y, t.tile, t.rotation, f.feature);
      const key = `${f.x},${f.y},${f.feature}`;
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      const g = svg('g', { transform: `translate(${px + n * 9} ${py - n * 3})`, class: 'placed-figure', dataset: { seat: f.seat, x: f.x, y: f.y, feature: f.feature } },
        svg('title', { text: `${game.players?.[f.seat]?.name ?? `seat ${f.seat}`}: ${f.figure}${f.protected ? ', protected' : ''}` }),
        figureShape(f.figure, seatColour(f.seat), { protectedMark: !!f.protected, scale: 1.1 }));
      L.figures.append(g);
    }
    for (const flock of game.flocks ?? []) {
      const t = this.tiles.get(`${flock.x},${flock.y}`);
      if (!t) continue;
      const [px, py] = featurePoint(flock.x, flock.y, t.tile, t.rotation, flock.feature);
      L.figures.append(svg('g', { transform: `translate(${px + 14} ${py + 10})`, class: 'flock' },
        svg('title', { text: `flock: ${flock.tokens.join(', ')} (${flock.sheep} sheep)` }), sheepShape(flock.sheep)));
    }
    if (game.bunny) {
      L.figures.append(svg('g', { class: 'bunny-figure', transform: `translate(${game.bunny.x * UNIT + 80} ${game.bunny.y * UNIT + 22})` },
        svg('title', { text: 'the bunny' }), svg('circle', { r: 13, fill: 'rgba(255,255,255,.6)' }), bunnyShape(1.2)));
    }
    if (game.bunny_go?.visited?.length > 1) {
      const pts = game.bunny_go.visited.map(([x, y]) => `${x * UNIT + 50},${y * UNIT + 50}`).join(' ');
      L.figures.append(svg('polyline', { class: 'bunny-path', points: pts }));
    }
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  // ---- pan and zoom
  apply() {
    const { scale, tx, ty } = this.view;
    this.world.setAttribute('transform', `translate(${tx} ${ty}) scale(${scale})`);
  }

  size() {
    const r = this.svg.getBoundingClientRect();
    return [r.width || 800, r.height || 600];
  }

  zoomBy(factor, cx, cy) {
    const [w, h] = this.size();
    const x = cx ?? w / 2, y = cy ?? h / 2;
    const v = this.view;
    const scale = Math.min(3, Math.max(0.08, v.scale * factor));
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

  fit(game = this.lastGame, ui = this.lastUi) {
    if (!game) return;
    const [x0, y0, x1, y1] = this.bounds(game, ui);
    const [w, h] = this.size();
    // Leave room for the action bar along the bottom.
    const bottom = Math.min(h * 0.35, 150);
    const scale = Math.min(1.2, Math.max(0.08, Math.min(w / ((x1 - x0 + 0.6) * UNIT), (h - bottom) / ((y1 - y0 + 0.6) * UNIT))));
    this.view = {
      scale,
      tx: w / 2 - ((x0 + x1) / 2) * UNIT * scale,
      ty: (h - bottom) / 2 - ((y0 + y1) / 2) * UNIT * scale,
    };
    this.userMoved = false;
    this.apply();
  }

  // Follows the game while the player has not moved the view: refits when the board grows.
  autoFit(game, ui) {
    this.lastGame = game;
    this.lastUi = ui;
    const b = this.bounds(game, ui).join(',');
    if (b !== this.lastBounds && !this.userMoved) this.fit(game, ui);
    this.lastBounds = b;
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
