// What the seat to act can do now, offered from the view's `legal_moves` only (the rules are
// never recomputed here): open squares and the drawn tile's rotations, spots for figures,
// figures to take back or protect, gift cards and their targets, Grow/Gather, Take 2's choice,
// the bunny's paths, and Pass. Builds the board's markers and the action bar; sends a move
// exactly as listed.
import { el } from './dom.js';
import { tilePicture, featurePoint } from './tiles_svg.js';
import { describeMove, describeDecision, bunnyWay } from './moves_text.js';
import { seatColour } from './names.js';
import { cardName, CARD_HELP } from './gifts.js';
import { featureGroups } from './features.js';

export class Decisions {
  // send(move) -> Promise of the server's answer
  constructor(send) {
    this.send = send;
    this.key = null;
    this.reset();
  }

  reset() {
    this.square = null;    // {x, y} chosen for the tile
    this.rotation = 0;     // the drawn tile's rotation shown
    this.card = null;      // a gift card whose targets are shown
    this.group = null;     // a marker whose several moves are offered in the bar
    this.busy = false;     // a move is on its way
  }

  // -> {ui: for Board.render, bar: element}; `changed` is called when a choice needs a redraw.
  build(game, { nameOf, changed }) {
    this.changed = changed;
    const legal = game.legal_moves;
    const key = legal ? JSON.stringify([game.turn, game.awaiting, legal]) : null;
    if (key !== this.key) { this.key = key; this.reset(); }
    if (game.status === 'finished') return { ui: {}, bar: el('div', { class: 'actions' }, el('span', { class: 'prompt' }, 'The game is over.')) };
    const mine = Array.isArray(legal) && legal.length > 0;
    if (!mine) return { ui: this.waitingUi(game), bar: this.waitingBar(game, nameOf) };
    this.game = game;
    const byType = (t) => legal.filter((m) => m.type === t);
    switch (game.awaiting?.decision) {
      case 'place_tile': return this.placeTile(game, byType('place_tile'), byType('open_gift'), legal);
      case 'bunny': return this.bunny(game, legal);
      default: return this.choices(game, legal);
    }
  }

  waitingUi(game) {
    const last = game.board[game.board.length - 1];
    return game.awaiting?.decision === 'figure' && last ? { current: { x: last.x, y: last.y } } : {};
  }

  waitingBar(game, nameOf) {
    const a = game.awaiting;
    const text = a ? `${nameOf(a.seat)} is about to ${describeDecision(a.decision)}…` : '';
    return el('div', { class: 'actions' }, el('span', { class: 'prompt waiting' }, text),
      game.tile && a?.decision === 'place_tile' ? el('span', { class: 'drawn' }, tilePicture(game.tile, 0, 56)) : null);
  }

  async play(move) {
    if (this.busy) return;
    this.busy = true;
    this.changed?.();
    try {
      await this.send(move);
    } finally {
      this.busy = false;
      this.changed?.();
    }
  }

  button(move, extra = {}) {
    const passLabel = { figure: 'Pass: no figure', protect: 'Don’t protect' }[this.game?.awaiting?.decision];
    if (move.type === 'pass' && passLabel && !extra.label) extra = { ...extra, label: passLabel };
    return el('button', {
      type: 'button', class: extra.class ?? (move.type === 'pass' ? '' : 'primary'), disabled: this.busy,
      dataset: { move: JSON.stringify(move), action: move.type }, onclick: () => this.play(move),
    }, extra.label ?? this.words(move));
  }

  words(m) {
    if (m.type === 'bunny') return describeMove(m, this.bunnyStart);
    if (m.x === undefined || m.feature === undefined) return describeMove(m);
    const segments = this.segments?.get(m)?.length ?? 0;
    if (segments > 1) return `${cardName(m.card)} on the road of ${segments} tiles`;
    return describeMove(m, this.side(m), m.to !== undefined ? this.side(m, m.to) : null);
  }

  // Where a feature lies on its tile, as the board shows it: "north", "south-east", "middle".
  side(m, feature = m.feature) {
    const tile = this.game?.board.find((t) => t.x === m.x && t.y === m.y);
    if (!tile) return null;
    const [px, py] = featurePoint(m.x, m.y, tile.tile, tile.rotation, feature);
    const dx = px - (m.x * 100 + 50), dy = py - (m.y * 100 + 50);
    if (Math.hypot(dx, dy) < 12) return 'middle';
    const names = ['east', 'south-east', 'south', 'south-west', 'west', 'north-west', 'north', 'north-east'];
    return names[(Math.round(Math.atan2(dy, dx) / (Math.PI / 4)) + 8) % 8];
  }

  // ---- placing the drawn tile (and, with the Gifts, opening a card first)
  placeTile(game, placements, gifts, legal) {
    if (this.card) return this.giftTargets(game, gifts.filter((m) => m.card === this.card));
    const squares = [];
    for (const m of placements) if (!squares.some((s) => s.x === m.x && s.y === m.y)) squares.push({ x: m.x, y: m.y });
    const rotationsAt = (s) => placements.filter((m) => m.x === s.x && m.y === s.y).map((m) => m.rotation);
    const chosen = this.square && placements.find((m) => m.x === this.square.x && m.y === this.square.y && m.rotation === this.rotation);
    const rotate = (dir) => {
      if (this.square) {
        const r = rotationsAt(this.square).sort((a, b) => a - b);
        const i = r.indexOf(this.rotation);
        this.rotation = r[(i + dir + r.length) % r.length];
      } else {
        this.rotation = (this.rotation + 90 * dir + 360) % 360;
      }
      this.changed();
    };
    this.onSquare = (s) => {
      const r = rotationsAt(s).sort((a, b) => a - b);
      if (this.square && this.square.x === s.x && this.square.y === s.y) {
        this.rotation = r[(r.indexOf(this.rotation) + 1) % r.length];  // a second click turns it
      } else {
        this.square = s;
        // Keep the rotation shown if it fits there, else the next one clockwise that does.
        if (!r.includes(this.rotation)) this.rotation = r.find((x) => x > this.rotation) ?? r[0];
      }
      this.changed();
    };
    this.onMarker = null;

    const kinds = [...new Set(gifts.map((m) => m.card))];
    const bar = el('div', { class: 'actions', dataset: { decision: 'place_tile' } },
      el('span', { class: 'prompt' }, squares.length ? 'Your turn: choose a square for your tile (click again to turn it), then place it.' : 'Your turn.'),
      el('span', { class: 'drawn' }, tilePicture(game.tile, this.rotation, 64),
        el('button', { type: 'button', title: 'turn left', 'aria-label': 'turn left', dataset: { action: 'rotate-left' }, onclick: () => rotate(-1) }, '⟲'),
        el('button', { type: 'button', title: 'turn right', 'aria-label': 'turn right', dataset: { action: 'rotate-right' }, onclick: () => rotate(1) }, '⟳')),
      chosen ? this.button(chosen, { label: 'Place the tile here' })
        : el('button', { type: 'button', class: 'primary', disabled: true, dataset: { action: 'place_tile' } }, this.square ? 'Does not fit this way' : 'Place'),
      kinds.length ? el('span', { class: 'group gifts' }, 'or open a gift:', kinds.map((card) => {
        const moves = gifts.filter((m) => m.card === card);
        const targetless = moves.length === 1 && moves[0].x === undefined;
        return el('button', {
          type: 'button', title: CARD_HELP[card], disabled: this.busy, dataset: { action: 'open_gift', card },
          onclick: () => { if (targetless) this.play(moves[0]); else { this.card = card; this.changed(); } },
        }, cardName(card));
      })) : null,
      this.otherButtons(legal, ['place_tile', 'open_gift']));
    const ghost = this.square ? { ...this.square, tile: game.tile, rotation: this.rotation } : null;
    return { ui: { squares, selectedSquare: this.square, ghost }, bar };
  }

  giftTargets(game, moves) {
    // Road Sweeper names a road by any of its segments: one target per road, not per segment.
    if (this.card === 'road_sweeper') {
      const groups = featureGroups(game.board);
      const seen = new Map();
      for (const m of moves) {
        const g = groups.get(`${m.x},${m.y},${m.feature}`) ?? `${m.x},${m.y},${m.feature}`;
        if (!seen.has(g)) seen.set(g, []);
        seen.get(g).push(m);
      }
      this.segments = new Map([...seen.values()].map((ms) => [ms[0], ms]));
      moves = [...this.segments.keys()];
    }
    const markers = this.markersFor(game, moves, (m) => (m.card === 'change_position' ? { ...m, feature: m.to } : m));
    const bar = el('div', { class: 'actions', dataset: { decision: 'open_gift' } },
      el('span', { class: 'prompt' }, `${cardName(this.card)}: ${CARD_HELP[this.card]}. Tap a target on the board or choose here:`),
      this.groupButtons(moves),
      el('button', { type: 'button', dataset: { action: 'cancel' }, onclick: () => { this.card = null; this.group = null; this.changed(); } }, 'Cancel'));
    this.segments = null;
    return { ui: { markers, focus: 'markers' }, bar };
  }

  // ---- every other decision: markers on the board where a move has a place, and buttons
  choices(game, legal) {
    const a = game.awaiting;
    const located = legal.filter((m) => m.x !== undefined && m.feature !== undefined);
    const markers = this.markersFor(game, located, (m) => m);
    const prompt = {
      figure: legal.some((m) => m.type === 'return_figure')
        ? 'Your turn: put a figure on your tile or take one back (tap a circle), or choose below.'
        : 'Your turn: put a figure on your tile (tap a circle), or choose below.',
      flock: 'Your shepherd’s field grew: Grow or Gather?',
      protect: 'Protect one of your followers for 2 points?',
      choose_tile: 'Take 2: which tile will you place?',
    }[a.decision] ?? `Your turn: ${describeDecision(a.decision)}.`;
    let buttons;
    if (a.decision === 'choose_tile') {
      buttons = legal.map((m) => m.type === 'choose_tile'
        ? el('span', { class: 'choice-tile' }, tilePicture(m.index === 0 ? game.tile : game.extra_tile, 0, 64), this.button(m))
        : this.button(m));
    } else {
      buttons = this.groupButtons(legal);
    }
    const last = game.board[game.board.length - 1];
    return {
      ui: { markers, focus: markers.length ? 'markers' : null, current: a.decision === 'figure' && last ? { x: last.x, y: last.y } : null },
      bar: el('div', { class: 'actions', dataset: { decision: a.decision } }, el('span', { class: 'prompt' }, prompt), buttons),
    };
  }

  // Buttons for moves: those of the marker clicked last first, marked; the moves without a
  // place on the board (Pass, Grow/Gather...); then every move, folded away while the board's
  // markers show them (a long list would cover the board on a phone).
  groupButtons(moves) {
    const group = this.group ? moves.filter((m) => this.markerKey(m) === this.group) : [];
    const unplaced = moves.filter((m) => !group.includes(m) && !this.markerKey(m));
    const placed = moves.filter((m) => this.markerKey(m));
    const all = placed.length > 3
      ? el('details', { class: 'all-choices' }, el('summary', {}, `Show all ${placed.length} choices as buttons ▾`),
        el('span', { class: 'group' }, placed.map((m) => this.button(m))))
      : el('span', { class: 'group' }, placed.filter((m) => !group.includes(m)).map((m) => this.button(m)));
    return el('span', { class: 'group' },
      group.map((m) => this.button(m, { class: 'primary selected' })),
      unplaced.map((m) => this.button(m)), all);
  }

  otherButtons(legal, handled) {
    const other = legal.filter((m) => !handled.includes(m.type));
    return other.length ? el('span', { class: 'group' }, other.map((m) => this.button(m))) : null;
  }

  markerKey(m) {
    if (m.x === undefined || m.feature === undefined) return null;
    const feature = m.card === 'change_position' ? m.to : m.feature;
    return `${m.type}:${m.x}:${m.y}:${feature}${m.type === 'return_figure' ? `:${m.figure ?? 'meeple'}` : ''}`;
  }

  // Moves grouped by marker key; clicking a marker plays its one move, or lists its several in
  // the bar. Squares take no clicks meanwhile.
  groupMarkers(moves, keyOf) {
    const groups = new Map();
    for (const m of moves) {
      const key = keyOf(m);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(m);
    }
    this.onMarker = ({ key }) => {
      const g = groups.get(key);
      if (!g) return;
      if (g.length === 1) this.play(g[0]);
      else { this.group = key; this.changed(); }
    };
    this.onSquare = null;
    return groups;
  }

  // One marker per spot; a spot with one move plays it, with several shows them in the bar.
  markersFor(game, moves, spotOf) {
    const groups = this.groupMarkers(moves.filter((m) => m.x !== undefined && m.feature !== undefined), (m) => this.markerKey(m));
    const markers = [];
    const me = game.viewer;
    for (const [key, g] of groups) {
      const spot = spotOf(g[0]);
      const tile = game.board.find((t) => t.x === spot.x && t.y === spot.y);
      if (!tile) continue;
      let [px, py] = featurePoint(spot.x, spot.y, tile.tile, tile.rotation, spot.feature);
      const m = g[0];
      // A marker on a spot where a figure stands sits beside it, not over it.
      if ((game.figures ?? []).some((f) => f.x === spot.x && f.y === spot.y && f.feature === spot.feature)) { px += 12; py -= 12; }
      const figureOf = (x) => (x.type === 'deploy' ? (x.figure ?? 'meeple') : x.type === 'open_gift' && x.card === 'synod' ? 'meeple' : null);
      // Every kind of figure the spot offers (a follower and the shepherd: both drawn).
      const figures = [...new Set(g.filter((x) => !x.protect).map(figureOf).filter(Boolean))];
      const segments = this.segments?.get(m) ?? [m];
      markers.push({
        key, px, py, figures, count: g.length, colour: typeof me === 'number' ? seatColour(me) : '#888', selected: key === this.group,
        kind: m.type, label: g.map((x) => this.words(x)).join(' / '),
        keys: segments.map((x) => this.markerKey(x)).join(' '),
      });
    }
    return markers;
  }

  // ---- Easter: the bunny's paths; a marker where each path ends
  bunny(game, legal) {
    const go = game.bunny_go;
    const start = go?.visited?.[go.visited.length - 1] ?? (game.bunny ? [game.bunny.x, game.bunny.y] : null);
    this.bunnyStart = start;
    const groups = this.groupMarkers(legal.filter((m) => m.type === 'bunny'), (m) => {
      const end = m.path[m.path.length - 1];
      return `bunny:${end[0]}:${end[1]}`;
    });
    const markers = [...groups.keys()].map((key) => {
      const [, x, y] = key.split(':').map(Number);
      // Where the bunny figure stands on a square (board.js), not over the figures.
      const g = groups.get(key);
      return { key, keys: key, px: x * 100 + 80, py: y * 100 + 22, kind: 'bunny', count: g.length, selected: key === this.group, label: `the bunny: ${g.map((m) => bunnyWay(m.path, start)).join(' / ')}` };
    });
    const chosen = this.group ? groups.get(this.group) ?? [] : [];
    const paths = [...groups.values()].flat().map((m) => ({ points: start ? [start, ...m.path] : m.path, choice: chosen.includes(m) }));
    const roll = go?.roll;
    const bar = el('div', { class: 'actions', dataset: { decision: 'bunny' } },
      el('span', { class: 'prompt' }, `Move the bunny${roll ? ` ${roll} ${roll === 1 ? 'hop' : 'hops'}` : ''}: click where it lands, or choose a path:`),
      el('span', { class: 'group' }, [...chosen, ...legal.filter((m) => !chosen.includes(m))].map((m) => this.button(m, { class: chosen.includes(m) ? 'primary selected' : undefined }))));
    return { ui: { markers, paths, focus: 'markers' }, bar };
  }
}

