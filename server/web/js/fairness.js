// Fair randomness on the page (docs/fairness.md): a nonce made in the browser for every join,
// the room's commitment shown while the game runs, and after the end a check made here, with the
// browser's own SHA-256 (Web Crypto), not on the server's word: the revealed secret hashes to the
// commitment this page saw before the end, the record's seed is the one derived here from the
// secret and the seats' nonces, and this seat's nonce is among them. The verdict is
// shown with a link to the record (which `carcassonne verify` checks draw by draw).
import { el, clear } from './dom.js';

const KEY = 'carcassonne.fairness.v1';
const SCHEME = 'carcassonne-fair/1';

function load() {
  try { return JSON.parse(localStorage.getItem(KEY)) ?? {}; } catch { return {}; }
}
function remember(room, fields) {
  const d = load();
  d[room] = { ...(d[room] ?? {}), ...fields };
  const ids = Object.keys(d);  // keep the 20 newest rooms
  for (const id of ids.slice(0, Math.max(0, ids.length - 20))) delete d[id];
  try { localStorage.setItem(KEY, JSON.stringify(d)); } catch { /* private mode: forget */ }
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
async function sha256(bytes) { return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))); }

// The nonce this page sends when it joins `room`: 16 random bytes as 32 hex digits, kept so that
// the page can find it among the revealed nonces.
export function nonceFor(room) {
  const nonce = freshNonce();
  remember(room, { nonce });
  return nonce;
}

// A seek's nonce (quickplay.js): the room is not known yet; adoptNonce keeps it for the room
// the match_found names.
export const freshNonce = () => hex(crypto.getRandomValues(new Uint8Array(16)));
export function adoptNonce(room, nonce) { remember(room, { nonce }); }

// A rematch's nonce (docs/fairness.md "Rematches"), sent with this seat's offer or acceptance in
// the finished room `room`, kept with the rematch's commitment shown there (the same one for a
// later offer: an answer refused or an offer that failed leaves no other nonce on the server);
// adoptRematch moves both to the new room once it is made, where the check below finds them.
export function rematchNonce(room, commitment) {
  const kept = load()[room]?.rematch;
  if (kept?.nonce && kept.commitment === commitment) return kept.nonce;
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)));
  remember(room, { rematch: { nonce, commitment } });
  return nonce;
}
export function adoptRematch(from, to) {
  const r = load()[from]?.rematch;
  if (r) remember(to, { nonce: r.nonce, ...(r.commitment ? { commitment: r.commitment } : {}) });
}

// docs/fairness.md "Seed": SHA-256 of scheme, 0x00, secret, seat count, (length, nonce) per seat.
export async function deriveSeed(secret, nonces) {
  const text = new TextEncoder();
  const parts = [text.encode(SCHEME), [0], unhex(secret), [nonces.length]];
  for (const n of nonces) parts.push([n.length], text.encode(n));
  const bytes = new Uint8Array(parts.reduce((k, p) => k + p.length, 0));
  let at = 0;
  for (const p of parts) { bytes.set(p, at); at += p.length; }
  return sha256(bytes);
}

async function check(roomId, fair, seen) {
  const problems = [];
  if (await sha256(unhex(fair.secret)) !== seen.commitment) problems.push('the secret does not match the commitment shown before the end');
  const nonces = fair.nonces.map((n) => n ?? '');
  const seed = await deriveSeed(fair.secret, nonces);
  if (seen.nonce && !nonces.includes(seen.nonce)) problems.push('this page’s nonce is missing');
  const record = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/record`).then((r) => r.json()).catch(() => null);
  if (!record) problems.push('the record could not be read');
  else if (record.setup?.seed !== seed) problems.push('the game’s seed is not the one derived from the secret and the nonces');
  else if (record.fairness?.commitment !== seen.commitment || record.fairness?.secret !== fair.secret) problems.push('the record does not say the same');
  return problems;
}

// Adds the fairness line under the page and keeps it up to date with the connection's view.
export function installFairness(conn) {
  const box = el('div', { id: 'fairness', class: 'muted', style: 'margin: 0.5rem 1rem; font-size: 0.9em', 'aria-live': 'polite' });
  document.body.append(box);
  let checked = null;  // room whose verdict is shown
  const show = (state, ...children) => { box.dataset.fairness = state; clear(box).append(...children); };
  // Out of the room (the lobby, a profile): no line about its deck.
  conn.addEventListener('membership', (e) => { if (e.detail.type === 'left') { show('none'); checked = null; } });
  conn.addEventListener('view', async () => {
    const view = conn.view;
    const fair = view?.room?.fairness;
    if (!fair) { show('none'); checked = null; return; }
    const roomId = view.room.id;
    const seen = load()[roomId] ?? {};
    if (!seen.commitment && !fair.secret) remember(roomId, { commitment: fair.commitment });
    const commitment = seen.commitment ?? fair.commitment;
    const short = `${commitment.slice(0, 16)}…`;
    if (!fair.secret) { checked = null; return show('committed', `Fair deck: the server committed to ${short} before anyone joined.`); }
    if (checked === roomId) return;
    checked = roomId;
    show('checking', 'Fair deck: checking…');
    const problems = await check(roomId, fair, { ...seen, commitment });
    const link = el('a', { href: `/api/rooms/${encodeURIComponent(roomId)}/record`, target: '_blank', rel: 'noopener' }, 'the record');
    if (problems.length) show('failed', el('strong', {}, 'Fair deck: NOT verified'), ` (${problems.join('; ')}). See `, link, '.');
    else show('verified', el('strong', {}, 'Fair deck: verified'), ` in this browser: the secret matches the commitment ${short}${seen.commitment ? ' seen before the end' : ''} and gives the game’s seed. Every draw can be checked with `, link, ' (carcassonne verify).');
  });
}
