// The page's expansions: what each one adds to the panel and the board, one file per expansion
// (the server's /api/options gives their names and options). An expansion without a file here
// shows nothing of its own. Hooks, each optional:
//   seatDetails(game, player, el) -> elements for that seat's line of the panel
//   gameInfo(game) -> strings for the panel's game line
//   ownPanel(game, el) -> elements after the panel (what only you see, and what is face up)
//   finalColumns(game) -> [heading, cell(player)] columns of the final scores
//   drawFigures(game, board) -> draws on board.layers.figures (board: tiles, layers, grow, unit)
import { hillsAndSheep } from './hills_and_sheep.js';
import { gifts } from './gifts.js';
import { peasantRevolts } from './peasant_revolts.js';
import { easter } from './easter.js';

// In the order the panel shows their lines.
const ALL = [hillsAndSheep, easter, gifts, peasantRevolts];

// The hooks of the expansions in play, in this order; for a view without its list, all of them.
export function expansionsOf(game) {
  const inPlay = game?.expansions;
  return Array.isArray(inPlay) ? ALL.filter((x) => inPlay.includes(x.id)) : ALL;
}
export const collect = (game, hook, ...args) => expansionsOf(game).flatMap((x) => (x[hook] ? x[hook](game, ...args) : []));
