// @ts-check
// Reconnection delays: `initial` ms after the first drop, doubled after each failed attempt up to
// `max`; back to `initial` once a connection is welcomed.

export class Backoff {
  /** @param {number} [initial] @param {number} [max] */
  constructor(initial = 500, max = 8000) {
    this.initial = initial;
    this.max = max;
    this.current = initial;
  }

  /** The delay before the next attempt. @returns {number} */
  next() {
    const delay = this.current;
    this.current = Math.min(this.current * 2, this.max);
    return delay;
  }

  reset() {
    this.current = this.initial;
  }
}
