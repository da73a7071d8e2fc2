// The lobby's "Finished" filter: the games finished lately on this server (GET /api/games,
// docs/protocol.md §23), newest first, each with its seats and scores, *Replay* (the room's page)
// and *Record*. A finished room leaves the lobby's list of rooms soon after its end; this keeps
// it findable.
import { el, clear } from './dom.js';
import { get, errorText } from './api.js';
import { gameItem } from './profile.js';

const SHOWN = 20;

export async function showFinished(node) {
  let page;
  try { page = await get(`/api/games?limit=${SHOWN}`); } catch (e) {
    clear(node).append(el('p', { class: 'muted', role: 'alert' }, errorText(e)));
    return;
  }
  clear(node).append(page.games.length
    ? el('ol', { class: 'games', id: 'finished-games' }, page.games.map((g) => gameItem(g)))
    : el('p', { class: 'muted' }, 'No finished game yet.'),
  page.total > SHOWN ? el('p', { class: 'muted' }, `The ${SHOWN} latest of ${page.total}.`) : null);
}
