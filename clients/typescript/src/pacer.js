// @ts-check
// Paces a connection's messages to the rate its `welcome` announced (docs/protocol.md §15:
// `message_rate` a second, bursts of `message_burst`), so that a well-behaved client is never
// answered `rate_limited`. A virtual-time bucket (GCRA): each message is due one interval after
// the previous one, and up to a burst of them may go early.

export class Pacer {
  constructor() {
    this.interval = 0; // ms between messages; 0: not paced
    this.tolerance = 0;
    this.tat = 0; // when the next message would be due at the steady rate
  }

  /** Paces from now on (a new connection: a new bucket). @param {number} rate @param {number} burst */
  configure(rate, burst) {
    this.interval = rate > 0 ? 1000 / rate : 0;
    this.tolerance = Math.max(0, Math.floor(burst) - 1) * this.interval;
    this.tat = 0;
  }

  reset() {
    this.interval = 0;
    this.tat = 0;
  }

  /** How long to wait before sending a message wanted at `now` (ms), counting it as sent then. @param {number} now */
  delay(now) {
    if (this.interval === 0) return 0;
    const at = Math.max(now, this.tat - this.tolerance);
    this.tat = Math.max(this.tat, at) + this.interval;
    return at - now;
  }
}
