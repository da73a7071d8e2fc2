// Points float from the feature that scored them to the seat's score (the panel's, or the
// phone's strip): a "+4" in the seat's colour, for a moment. Nothing moves under reduced motion.
// body[data-floated] counts them (for the browser test).
import { el } from './dom.js';
import { seatColour, seatInk } from './names.js';

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

// events: one change's; board: the Board (its screen point of a feature).
export function floatPoints(events, board) {
  if (reducedMotion() || !Element.prototype.animate) return;
  for (const e of events) {
    if (e.type !== 'points' || e.x === undefined || !e.points) continue;
    const from = board.screenPoint(e.x, e.y, e.feature);
    const score = [...document.querySelectorAll(`.strip-seat[data-seat="${e.seat}"] .strip-score, .player[data-seat="${e.seat}"] .score`)].find((n) => n.checkVisibility());
    if (!from || !score) continue;
    const to = score.getBoundingClientRect();
    const node = el('div', { class: 'float-points', style: `left:${from[0]}px;top:${from[1]}px;background:${seatColour(e.seat)};color:${seatInk(e.seat)}` },
      `${e.points > 0 ? '+' : ''}${e.points}`);
    document.body.append(node);
    document.body.dataset.floated = String(Number(document.body.dataset.floated ?? 0) + 1);
    const dx = to.left + to.width / 2 - from[0], dy = to.top + to.height / 2 - from[1];
    node.animate([{ transform: 'translate(-50%, -50%) scale(1.3)', opacity: 1 }, { transform: 'translate(-50%, -50%) scale(1.3)', opacity: 1, offset: 0.3 },
      { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(0.8)`, opacity: 0.4 }], { duration: 1200, easing: 'ease-in' })
      .finished.then(() => node.remove(), () => node.remove());
  }
}
