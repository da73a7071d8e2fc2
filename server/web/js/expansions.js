// The page's expansions: what each one adds to the panel and the board, one file per expansion
// (the server's /api/options gives their names and options). An expansion without a file here
// shows nothing of its own. Hooks, each optional (`order`: its place in the panel, lower first):
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
// and its part of the action bar (actions.js reads them; `d` is the Decisions, see there), each
// optional, under `actions`:
//   decide: {decision: (d, game, legal) -> {ui, bar}} for a decision it offers by itself
//   placeTile(d, game, legal) -> {ui, bar} or null: takes over the tile step (a card's targets)
//   placeTileButtons(d, game, legal) -> {types, buttons}: its buttons beside Place, for those moves
//   prompts: {decision: (legal) -> text or undefined} for the bar's prompt
//   choiceButtons: {decision: (d, game, legal) -> elements} in place of one button per move
//   passLabels: {decision: words} for Pass
//   words(d, m) -> text or undefined: a move's button, when the board's side is not enough
//   markerFeature: {type: (m) -> feature} where a move's marker sits, if not on `m.feature`
//   markerKeySuffix: {type: (m) -> text} telling apart moves on one spot with separate markers
//   markerFigure: {type: (m) -> figure or null} the figure a move's marker shows
//   hidesFigure(m) -> true for a move whose marker shows no figure of its own (a variant)
// No list here: loadExpansions gets the ids from /api/options (names.js) and imports ./<id>.js for
// each; a module's default export is its hooks, `order` its place among the panel's lines.
const ALL = [];

// Once, before the page renders (loadVocabulary calls it).
export async function loadExpansions(ids) {
  if (ALL.length) return;
  const found = await Promise.all(ids.map((id) => import(`./${id}.js`).then((m) => m.default, () => undefined)));
  ALL.push(...found.filter((x) => x && !ALL.includes(x)).sort((a, b) => (a.order ?? 99) - (b.order ?? 99)));
}

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
// An expansion's action hook for one move type or decision (types are unique), or undefined.
export function expansionAction(table, id) {
  for (const x of ALL) if (x.actions?.[table]?.[id] !== undefined) return x.actions[table][id];
  return undefined;
}
// The answers of every expansion's action hook `hook`, in the panel's order, undefined dropped.
export const expansionActions = (hook, ...args) => ALL.flatMap((x) => {
  const r = x.actions?.[hook] ? x.actions[hook](...args) : undefined;
  return r === undefined || r === null ? [] : [r];
});
