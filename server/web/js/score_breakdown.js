// Each seat's points by where they came from, added up from the `points` events the server
// sends (docs/protocol.md §8): cities, roads, monasteries, fields, flocks, and the rest
// (revolts, protection, Cash Out, eggs, unopened gifts). Nothing is scored here: the events
// carry every point, and their sum per seat is the seat's score.

// [id, words, short heading]
export const CATEGORIES = [
  ['city', 'cities', 'city'], ['road', 'roads', 'road'], ['monastery', 'monasteries', 'mon.'], ['field', 'fields', 'field'],
  ['flock', 'flocks', 'flock'], ['revolt', 'revolts', 'revolt'], ['protection', 'protection', 'prot.'], ['cash_out', 'Cash Out', 'cash'],
  ['eggs', 'eggs', 'eggs'], ['gifts', 'gifts', 'gifts'],
];

const categoryOf = (e) => e.reason ?? e.kind ?? 'other';

export class ScoreBreakdown {
  constructor() { this.reset(); }
  reset() { this.bySeat = new Map(); }

  add(events) {
    for (const e of events) {
      if (e.type !== 'points') continue;
      const seat = this.bySeat.get(e.seat) ?? {};
      const c = categoryOf(e);
      seat[c] = (seat[c] ?? 0) + e.points;
      this.bySeat.set(e.seat, seat);
    }
  }

  of(seat) { return this.bySeat.get(seat) ?? {}; }
  total(seat) { return Object.values(this.of(seat)).reduce((a, b) => a + b, 0); }
  // The categories anyone has points in, in the order above.
  used() {
    const all = new Set([...this.bySeat.values()].flatMap((s) => Object.keys(s)));
    return CATEGORIES.filter(([c]) => all.has(c)).concat([...all].filter((c) => !CATEGORIES.some(([k]) => k === c)).map((c) => [c, c, c]));
  }
}
