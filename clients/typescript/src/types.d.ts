// The client's own types (the wire's are in wire.d.ts, generated from docs/schema).
import type {
  ErrorFrame, Events, ServerAuthenticated, ServerChat, ServerGoodbye, ServerMatchFound, ServerMessage,
  ServerRematchReady, ServerReplaced, ServerWelcome,
} from './wire';

/** The part of a WebSocket the client uses: the browser's, or the `ws` package's under Node. */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
}
export type SocketConstructor = new (url: string) => SocketLike;

/** Timers and time (tests pass a fake one). */
export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** milliseconds, monotonic */
  now(): number;
}

export interface ClientOptions {
  /** default: the global WebSocket (browsers); under Node 20 pass the `ws` package's */
  WebSocket?: SocketConstructor;
  /** `hello`'s `client` (default "carcassonne-client/1") */
  clientName?: string;
  /** a player's session (§23: POST /api/guest, /api/sign-in), or a bot account's API token (`bot_…`, §23 "Outside bots"): each socket authenticates with it first */
  session?: string;
  /** default: the global timers and performance.now() */
  clock?: Clock;
  /** first reconnection delay (default 500 ms), doubled after each failure */
  backoffInitialMs?: number;
  /** longest reconnection delay (default 8000 ms) */
  backoffMaxMs?: number;
  /** times a move is sent again after a drop (default 3) */
  moveRetries?: number;
  /** how long a retry waits for the seat to be back (default 30000 ms) */
  moveRetryWaitMs?: number;
  /** resume with `last_seq`: only the missed patches (docs/protocol.md §12; default true) */
  resumeMissed?: boolean;
}

/** Where the connection is, after each change. */
export interface Membership {
  type: 'seat' | 'spectator' | 'left' | 'replaced' | 'lost_seat' | 'refused';
  room?: string | null;
  token?: string;
  code?: string;
  message?: string;
}

/**
 * What a Client dispatches: CustomEvents whose `detail` is the value here (`on()` hands the
 * detail to its listener).
 */
export interface ClientEvents {
  /** the socket's state */
  status: { state: 'connecting' | 'open' | 'closed' };
  /** a socket was welcomed */
  welcome: ServerWelcome;
  /** every frame received */
  message: ServerMessage;
  /** the view changed: a patch (with its events) or a snapshot */
  view: { events: Events; snapshot: boolean };
  chat: ServerChat;
  membership: Membership;
  /** another connection took this seat; it is not taken back */
  replaced: ServerReplaced;
  /** the server is going away (the connection comes back by itself) */
  goodbye: ServerGoodbye;
  /** a seat the server arranged (§24) */
  match: ServerMatchFound;
  /** a rematch room with this seat (§21) */
  rematch: ServerRematchReady;
  /** an error frame that answers no request */
  error: ErrorFrame;
  /** the room went to another instance: reconnecting */
  room_moved: { room: string | null };
  /** the room's instance is being replaced: asking again after `waitMs` */
  waiting: { room: string; waitMs: number };
  /** an `authenticate` was answered */
  authenticated: { player: ServerAuthenticated['player'] | null; error: ErrorFrame | null };
}
