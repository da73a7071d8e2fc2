// What the seat to act can do now, offered from the view's `legal_moves` only (the rules are
// never recomputed here): open squares and the drawn tile's rotations, markers for the moves
// with a place on the board, buttons for every move, and Pass. Builds the board's markers and
// the action bar; sends a move exactly as listed. What an expansion adds (its own decisions,
// buttons beside Place, prompts, markers) comes from its file through `actions` hooks
// (expansions.js), which are handed this object.
import { el } from './dom.js';
import { tilePicture, featurePoint } from './tiles_svg.js';
import { describeMove, describeDecision } from './moves_text.js';
import { seatColour } from './names.js';
import { expansionAction, expansionActions } from './expansions.js';
import { distinctButtons, distinctLabels } from './distinct_labels.js';

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
    this.own = {};         // what an expansion's hooks keep between redraws of one decision
    this.group = null;     // a marker whose several moves are offered in the bar
    this.busy = false;     // a move is on its way
    this.segments = null;  // while building: a move standing for several spots -> those moves
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
    const built = this.decide(game, legal);
    // No two controls read the same for different moves (buttons, and the board's circles).
    distinctButtons(built.bar, game);
    const markers = built.ui?.markers?.filter((m) => m.label) ?? [];
    distinctLabels(markers.map((m) => ({ label: m.label, move: m.key, point: [m.px, m.py] }))).forEach((l, i) => { markers[i].label = l; });
    return built;
  }

  decide(game, legal) {
    const byType = (t) => legal.filter((m) => m.type === t);
    const decision = game.awaiting?.decision;
    if (decision === 'place_tile') return this.placeTile(game, byType('place_tile'), legal);
    const own = expansionAction('decide', decision);
    return own ? own(this, game, legal) : this.choices(game, legal);
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
    const decision = this.game?.awaiting?.decision;
    const passLabel = decision === 'figure' ? 'Pass: no figure' : expansionAction('passLabels', decision);
    if (move.type === 'pass' && passLabel && !extra.label) extra = { ...extra, label: passLabel };
    return el('button', {
      type: 'button', class: extra.class ?? (move.type === 'pass' ? '' : 'primary'), disabled: this.busy,
      dataset: { move: JSON.stringify(move), action: move.type }, onclick: () => this.play(move),
    }, extra.label ?? this.words(move));
  }

  words(m) {
    const own = expansionActions('words', this, m)[0];
    if (own !== undefined) return own;
    if (m.x === undefined || m.feature === undefined) return describeMove(m);
    return describeMove(m, this.side(m));
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

  // ---- placing the drawn tile (and whatever an expansion offers before it)
  placeTile(game, placements, legal) {
    const taken = expansionActions('placeTile', this, game, legal)[0];
    if (taken) return taken;
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

    const extras = expansionActions('placeTileButtons', this, game, legal);
    const bar = el('div', { class: 'actions', dataset: { decision: 'place_tile' } },
      el('span', { class: 'prompt' }, squares.length ? 'Your turn: choose a square for your tile (click again to turn it), then place it.' : 'Your turn.'),
      el('span', { class: 'drawn' }, tilePicture(game.tile, this.rotation, 64),
        el('button', { type: 'button', title: 'turn left', 'aria-label': 'turn left', dataset: { action: 'rotate-left' }, onclick: () => rotate(-1) }, '⟲'),
        el('button', { type: 'button', title: 'turn right', 'aria-label': 'turn right', dataset: { action: 'rotate-right' }, onclick: () => rotate(1) }, '⟳')),
      chosen ? this.button(chosen, { label: 'Place the tile here' })
        : el('button', { type: 'button', class: 'primary', disabled: true, dataset: { action: 'place_tile' } }, this.square ? 'Does not fit this way' : 'Place'),
      extras.map((x) => x.buttons),
      this.otherButtons(legal, ['place_tile', ...extras.flatMap((x) => x.types)]));
    const ghost = this.square ? { ...this.square, tile: game.tile, rotation: this.rotation } : null;
    return { ui: { squares, selectedSquare: this.square, ghost }, bar };
  }

  // ---- every other decision: markers on the board where a move has a place, and buttons
  choices(game, legal) {
    const a = game.awaiting;
    const located = legal.filter((m) => m.x !== undefined && m.feature !== undefined);
    const markers = this.markersFor(game, located);
    const prompt = expansionAction('prompts', a.decision)?.(legal)
      ?? { figure: 'Your turn: put a figure on your tile (tap a circle), or choose below.' }[a.decision]
      ?? `Your turn: ${describeDecision(a.decision)}.`;
    const ownButtons = expansionAction('choiceButtons', a.decision);
    const buttons = ownButtons ? ownButtons(this, game, legal) : this.groupButtons(legal);
    const last = game.board[game.board.length - 1];
    return {
      ui: { markers, focus: markers.length ? 'markers' : null, current: a.decision === 'figure' && last ? { x: last.x, y: last.y } : null },
      bar: el('div', { class: 'actions', dataset: { decision: a.decision } }, el('span', { class: 'prompt' }, prompt), buttons),
    };
  }

  // Buttons for moves: those of the marker clicked last first, marked; the moves without a
  // place on the board (Pass, an expansion's choices); then every move, folded away while the board's
  // markers show them (a long list would cover the board on a phone).
  groupButtons(moves) {
    const group = this.group ? moves.filter((m) => this.markerKey(m) === this.group) : [];
    const unplaced = moves.filter((m) => !group.includes(m) && !this.markerKey(m));
    const placed = moves.filter((m) => this.markerKey(m));
    // The circle's own moves are shown first, and not again in the list.
    const rest = placed.filter((m) => !group.includes(m));
    const all = rest.length > 3
      ? el('details', { class: 'all-choices' }, el('summary', {}, `Show ${group.length ? 'the other' : 'all'} ${rest.length} choices as buttons ▾`),
        el('span', { class: 'group' }, rest.map((m) => this.button(m))))
      : el('span', { class: 'group' }, rest.map((m) => this.button(m)));
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
    return `${m.type}:${m.x}:${m.y}:${this.markerFeature(m)}${expansionAction('markerKeySuffix', m.type)?.(m) ?? ''}`;
  }

  markerFeature(m) {
    return expansionAction('markerFeature', m.type)?.(m) ?? m.feature;
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
  markersFor(game, moves) {
    const groups = this.groupMarkers(moves.filter((m) => m.x !== undefined && m.feature !== undefined), (m) => this.markerKey(m));
    const markers = [];
    const me = game.viewer;
    for (const [key, g] of groups) {
      const spot = { x: g[0].x, y: g[0].y, feature: this.markerFeature(g[0]) };
      const tile = game.board.find((t) => t.x === spot.x && t.y === spot.y);
      if (!tile) continue;
      let [px, py] = featurePoint(spot.x, spot.y, tile.tile, tile.rotation, spot.feature);
      const m = g[0];
      // A marker on a spot where a figure stands sits beside it, not over it.
      if ((game.figures ?? []).some((f) => f.x === spot.x && f.y === spot.y && f.feature === spot.feature)) { px += 12; py -= 12; }
      const figureOf = (x) => (x.type === 'deploy' ? (x.figure ?? 'meeple') : expansionAction('markerFigure', x.type)?.(x) ?? null);
      // Every kind of figure the spot offers (a follower and an expansion's figure: both drawn).
      const figures = [...new Set(g.filter((x) => !expansionActions('hidesFigure', x).includes(true)).map(figureOf).filter(Boolean))];
      const segments = this.segments?.get(m) ?? [m];
      markers.push({
        key, px, py, figures, count: g.length, colour: typeof me === 'number' ? seatColour(me) : '#888', selected: key === this.group,
        kind: m.type, label: g.map((x) => this.words(x)).join(' / '),
        keys: segments.map((x) => this.markerKey(x)).join(' '),
      });
    }
    return markers;
  }
}
