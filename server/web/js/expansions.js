// The page's expansions: what each one adds to the panel and the board, one file per expansion
// (the server's /api/options gives their names and options). An expansion without a file here
// shows nothing of its own. Hooks, each optional:
//   seatDetails(game, player, el) -> elements for that seat's line of the panel
//   gameInfo(game) -> strings for the panel's game line
//   ownPanel(game, el) -> elements after the panel (what only you see, and what is face up)
//   finalColumns(game) -> [heading, cell(player)] columns of the final scores
//   drawFigures(game, board) -> draws on board.layers.figures (board: tiles, layers, grow, unit)
// and its words, each optional (events_text.js, moves_text.js and names.js read them):
//   events: {type: (e, {who, at, kindWord}) -> text} for its events in the log
//   reasons: {reason: (who, pts) -> text} for its points events
//   moves: {type: (m, on, toSide, side) -> text} for its moves' buttons
//   decisions: {decision: words} for "Bob is ..."
//   figures: {figure: {word, deployed: (who, at) -> text, deploy: (on) -> text}}
//   tileSymbols(type) -> words for the symbols of a catalogue tile type ("hill")
import { hillsAndSheep } from './hills_and_sheep.js';
import { gifts } from './gifts.js';
import { peasantRevolts } from './peasant_revolts.js';
import { easter } from './easter.js';
import { festival } from './festival.js';

// In the order the panel shows their lines.
const ALL = [hillsAndSheep, easter, gifts, peasantRevolts, festival];

// The hooks of the expansions in play, in this order; for a view without its list, all of them.
export function expansionsOf(game) {
  const inPlay = game?.expansions;
  return Array.isArray(inPlay) ? ALL.filter((x) => inPlay.includes(x.id)) : ALL;
}
// The words an expansion gives for one of its ids, whichever expansion owns it (ids are unique).
export function expansionText(table, id) {
  for (const x of ALL) if (x[table]?.[id] !== undefined) return x[table][id];
  return undefined;
}
export const expansionWords = (hook, ...args) => ALL.flatMap((x) => (x[hook] ? x[hook](...args) : []));
export const collect = (game, hook, ...args) => expansionsOf(game).flatMap((x) => (x[hook] ? x[hook](game, ...args) : []));
