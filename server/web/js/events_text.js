// The events of a patch (docs/protocol.md §8) told in words for the log: "Ann completed a city
// for 12 points". One change's events are read together, so that a feature's completion and
// the points it gives make one line.
import { expansionText } from './expansions.js';
import { featureWords, plural, tileWords } from './names.js';
import { tileType } from './tiles_svg.js';

// Squares are not named by coordinates (the board shows none): a line about a square carries
// it (`at`), and the log shows it on the board when the line is clicked.
const at = () => '';
const tileText = (id) => tileWords(tileType(id));
const kindWord = (e) => e.kind ?? featureWords(e.feature);
const follower = (figure) => expansionText('figures', figure)?.word ?? 'follower';

function list(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const declinedWhy = {
  no_answer: ': not answered in time',
  moved: ': a move was made',
  forfeit: ': a seat left the game',
};
const forfeitWhy = {
  resign: 'resigned',
  timeout: 'ran out of time and left the game',
  away: 'was away too long and left the game',
};

// -> [{text, kind}] where kind is 'score' for lines about points, 'undo' for a take-back, else
// 'event'.
export function describeEvents(events, nameOf) {
  const lines = [];
  const said = new Set();  // indexes of points events already told with their feature
  events.forEach((e, i) => {
    if (said.has(i)) return;
    const who = e.seat !== undefined ? nameOf(e.seat) : '';
    const line = (text, kind = 'event', extra = {}) =>
      lines.push({ text, kind, at: e.x !== undefined ? { x: e.x, y: e.y } : undefined, ...extra });
    switch (e.type) {
      case 'turn_started': line(`${who}'s turn.`); break;
      case 'tile_drawn': line(`${who} drew ${tileText(e.tile)}.`, 'event', { tile: { id: e.tile } }); break;
      case 'tile_discarded': line(`${tileText(e.tile)} fits nowhere: discarded, ${who} draws again.`, 'event', { tile: { id: e.tile } }); break;
      case 'tile_placed': line(`${who} placed ${tileText(e.tile)}.`, 'event', { tile: { id: e.tile, rotation: e.rotation } }); break;
      case 'figure_deployed': {
        const own = expansionText('figures', e.figure)?.deployed;
        line(own ? own(who, at(e)) : `${who} put a follower on a ${kindWord(e)}${at(e)}.`);
        break;
      }
      case 'figure_returned': line(`${who}'s ${follower(e.figure)} came back from the ${kindWord(e)}${at(e)}.`); break;
      case 'feature_completed': {
        // The points events of this completion follow right after it.
        const scorers = [];
        for (let j = i + 1; j < events.length; j++) {
          const p = events[j];
          if (p.type !== 'points' || p.reason || p.final || p.x !== e.x || p.y !== e.y || p.feature !== e.feature) break;
          scorers.push(nameOf(p.seat));
          said.add(j);
        }
        if (scorers.length) line(`${list(scorers)} completed a ${e.kind} for ${plural(e.points, 'point')}.`, 'score');
        else line(`A ${e.kind} was completed (${plural(e.points, 'point')}, nobody's).`);
        break;
      }
      case 'points': line(pointsText(e, who), 'score'); break;
      case 'game_finished': line('The game is over.', 'score'); break;
      // The room's own events (§8 "Room events").
      case 'undo_requested': line(`${who} asks to take back their last move.`); break;
      case 'undo_answered': line(e.accept ? `${who} agrees to the take-back.` : `${who} refuses the take-back.`); break;
      case 'undo_declined': line(`The take-back is declined${declinedWhy[e.reason] ?? ''}.`); break;
      case 'undo_done': line(`${who} took back their last move.`, 'undo'); break;
      case 'timed_out': line(`${who}'s time ran out.`); break;
      case 'forfeited': line(`${who} ${forfeitWhy[e.reason] ?? 'left the game'}.`, 'score'); break;
      case 'rematch_offered': line(`${who} offers a rematch.`); break;
      default: {
        const own = expansionText('events', e.type);
        line(own ? own(e, { who, at, kindWord }) : `${e.type}${who ? ` (${who})` : ''}`);
      }
    }
  });
  return lines;
}

function pointsText(e, who) {
  const pts = plural(Math.abs(e.points), 'point');
  const own = e.reason && expansionText('reasons', e.reason);
  if (own) return own(who, pts);
  if (e.final) return `Final scoring: ${who} scored ${pts} for a ${e.kind}.`;
  return `${who} scored ${pts} for a ${e.kind}.`;
}
