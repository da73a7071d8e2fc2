// What the page remembers in localStorage: the player's name and, per room, the seat token
// that takes the seat back after a reload or a lost connection (docs/protocol.md §12). The
// token is the only proof of a seat: it is kept here and sent to nobody but the server.

const KEY = 'carcassonne.v1';

function load() {
  try { return JSON.parse(localStorage.getItem(KEY)) ?? {}; } catch { return {}; }
}
function save(data) {
  try { localStorage.setItem(KEY, JSON.stringify(data)); } catch { /* private mode: forget */ }
}

export function playerName() { return load().name ?? ''; }
export function setPlayerName(name) { const d = load(); d.name = name; save(d); }

// {token, creator} for a room, or null.
export function seatOf(room) { return load().seats?.[room] ?? null; }
export function setSeat(room, seat) {
  const d = load();
  d.seats = d.seats ?? {};
  d.seats[room] = seat;
  // Old rooms are gone from the server after a while: keep the 20 newest.
  const ids = Object.keys(d.seats);
  for (const id of ids.slice(0, Math.max(0, ids.length - 20))) delete d.seats[id];
  save(d);
}
export function forgetSeat(room) { const d = load(); if (d.seats) delete d.seats[room]; save(d); }

// The "your turn" sound: off unless the player turns it on.
export function soundOn() { return load().sound === true; }
export function setSoundOn(on) { const d = load(); d.sound = !!on; save(d); }

// The guest this browser made (docs/protocol.md §23): its player id and key sign it in again
// when the session cookie is lost. {player, key} or null.
export function guestKey() { return load().guest ?? null; }
export function setGuestKey(guest) { const d = load(); if (guest) d.guest = guest; else delete d.guest; save(d); }
// Whether this browser has had a session (its cookie is HttpOnly: the page cannot look): a first
// visit makes a guest at once rather than ask who it is and be told 401.
export function hadSession() { return load().session === true; }
export function setHadSession(had) { const d = load(); d.session = !!had; save(d); }
