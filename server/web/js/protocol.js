// The page's connection. The client package (clients/typescript; js/client links to its src/)
// does the protocol (docs/protocol.md: requests by id, snapshot + patches with seq, reconnection
// and resume, `moved`, authentication, move ids); this adds what is the page's own: its client
// name, a fair-deck nonce with each join (fairness.js), and the package's events worded as
// notices. Events: those of the package (status, view, chat, membership, match, rematch...) and
// 'notice' {text, kind}, server messages worth showing.

import { Client } from './client/index.js';
import { nonceFor } from './fairness.js';

export class Connection extends Client {
  /** @param {string} url */
  constructor(url) {
    // Resumed with a snapshot (no last_seq): its clock_elapsed_ms keeps clocks.js exact.
    super(url, { clientName: 'carcassonne-web/1', resumeMissed: false });
    this.on('replaced', () => this.notice('This seat was taken over by another window. Reload to take it back.', 'error'));
    this.on('goodbye', (m) => this.notice(`The server says goodbye: ${m.reason}. Reconnecting…`, 'error'));
    this.on('room_moved', () => this.notice('The game moved to another server: reconnecting…', 'info'));
    this.on('waiting', () => this.notice('The game\'s server is being replaced: waiting…', 'info'));
    this.on('error', (m) => this.notice(m.message, 'error'));
    this.on('authenticated', (a) => { if (a.error) this.notice(`Not signed in on the connection: ${a.error.message}`, 'error'); });
  }

  notice(text, kind = 'info') {
    this.dispatchEvent(new CustomEvent('notice', { detail: { text, kind } }));
  }

  // Takes a seat with a fresh nonce for the room's fair deck (docs/fairness.md).
  join(room, name, seat) {
    return super.join(room, { name, seat, nonce: nonceFor(room) });
  }
}
