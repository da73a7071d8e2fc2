// "Your turn", seen from a background tab: the title starts with "▶ Your turn" and the favicon
// gets an orange dot while this page's seat must act (the optional chime is turn_sound.js).
const PLAIN = '/static/favicon.svg', TURN = '/static/favicon-turn.svg';

export function showTurnSignal(mine, roomName) {
  document.title = mine ? `▶ Your turn — ${roomName} — Carcassonne` : `${roomName} — Carcassonne`;
  setIcon(mine ? TURN : PLAIN);
}

export function clearTurnSignal() { setIcon(PLAIN); }

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute('href') !== href) { link.setAttribute('href', href); link.dataset.turn = String(href === TURN); }
}
