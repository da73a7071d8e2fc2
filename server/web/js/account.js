// Who plays on this page (docs/protocol.md §23): a player signed in with the HttpOnly session
// cookie. At start: GET /api/me; without a session, the guest this browser made signs in again
// with its key (kept in localStorage), or else a new guest is made at once. The WebSocket then
// authenticates with the cookie of its upgrade request (protocol.js). Signing in by name or out
// changes the cookie, so the connection is opened again to carry the new one; claiming a name
// keeps the session, and the connection only authenticates again to learn the new name.
// Without accounts on the server (503 accounts_unavailable, or no answer) the page plays as
// before: under the name typed in the lobby. A server with OpenID Connect offers its provider
// too (/api/sign-in-methods): the browser leaves for /auth/oidc/start and comes back signed in,
// or to "/#signin-error=CODE" (signInErrorText says it in words).
import { get, post } from './api.js';
import * as store from './store.js';

export class Account extends EventTarget {
  constructor(conn) {
    super();
    this.conn = conn;
    this.player = null;       // {id, name, guest, bot} while signed in
    this.available = true;    // false: the server has no accounts (play under a typed name)
    this.refusal = null;      // why nobody is signed in (banned), to show
    this.methods = { password: true, oidc: false, oidc_issuer: null };  // GET /api/sign-in-methods
  }

  get signedIn() { return this.player !== null; }

  set(player) {
    this.player = player;
    store.setHadSession(player !== null);
    this.conn.wantsAuth = player !== null;
    this.dispatchEvent(new CustomEvent('change', { detail: { player } }));
  }

  // Signs in (by cookie, by the stored key, or as a new guest). Never throws: on failure the
  // page goes on without an account. A first visit asks nothing: it makes a guest.
  async start() {
    this.methods = await get('/api/sign-in-methods').catch(() => this.methods);
    if (store.hadSession()) {
      try {
        this.set((await get('/api/me')).player);
        return;
      } catch (e) {
        if (e.code === 'banned') return this.banned(e);
        if (e.status !== 401) return this.unavailable();  // no accounts here: play by typed name
      }
    }
    const kept = store.guestKey();
    if (kept) {
      try {
        this.set((await post('/api/sign-in', { player: kept.player, key: kept.key })).player);
        return;
      } catch (e) {
        if (e.code === 'banned') return this.banned(e);
        if (e.code !== 'bad_credentials') return this.unavailable();
        store.setGuestKey(null);  // that guest is gone (deleted): make another
      }
    }
    await this.makeGuest().catch(() => this.unavailable());
  }

  unavailable() {
    this.available = false;
    this.set(null);
  }

  banned(e) {
    this.refusal = e.message;
    this.set(null);
  }

  async makeGuest() {
    const made = await post('/api/guest', {});
    store.setGuestKey({ player: made.player.id, key: made.key });
    this.set(made.player);
  }

  // Claims a name for this guest (the same player, session and games): throws ApiError.
  async claim(name, password) {
    const answer = await post('/api/me/name', { name, password });
    this.set(answer.player);
    await this.conn.authenticate().catch(() => {});
  }

  // Signs in by name: this browser's guest (if any) is left behind.
  async signIn(name, password) {
    const answer = await post('/api/sign-in', { name, password });
    store.setGuestKey(null);
    this.set(answer.player);
    await this.conn.reopen();
  }

  // Signs out, then plays on as a new guest.
  async signOut() {
    await post('/api/sign-out', {}).catch((e) => { if (e.code !== 'bad_session') throw e; });
    await this.asNewGuest();
  }

  // A new password (the old one is asked: a page left open is not enough to change it).
  async changePassword(oldPassword, newPassword) {
    await post('/api/me/password', { old_password: oldPassword, new_password: newPassword });
  }

  // Deletes the account (its games stay, under "deleted player"), then plays on as a new guest.
  async deleteAccount() {
    await post('/api/me/delete', {});
    await this.asNewGuest();
  }

  async asNewGuest() {
    store.setGuestKey(null);
    this.set(null);
    await this.makeGuest().catch(() => {});
    await this.conn.reopen();
  }
}

// What a failed OpenID Connect sign-in's code (docs/protocol.md §23) means for the user.
export function signInErrorText(code) {
  switch (code) {
    case 'bad_oidc_state': return 'The sign-in was not started on this page, or took too long: try again.';
    case 'oidc_denied': return 'The sign-in was cancelled at the provider.';
    case 'provider_unreachable': return 'The sign-in provider cannot be reached: try again later.';
    case 'bad_provider': case 'bad_settings': return 'The sign-in provider is not set up correctly on this server: tell its host.';
    case 'token_refused': case 'bad_id_token': return `The sign-in provider's answer was refused (${code}): try again.`;
    case 'banned': return 'This account is banned from the server.';
    default: return `Signing in failed (${code}).`;
  }
}
