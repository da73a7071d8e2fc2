// Words for the game's ids: expansions, their rule options (docs/options.md), gift cards,
// feature kinds, and the seats' colours.

export const EXPANSIONS = [
  ['hills_and_sheep', 'Hills & Sheep'],
  ['gifts', 'The Gifts'],
  ['peasant_revolts', 'The Peasant Revolts'],
  ['easter', 'Easter in Carcassonne'],
  ['festival', 'The Festival'],
];
export const expansionName = (id) => EXPANSIONS.find(([k]) => k === id)?.[1] ?? id;

// Every rule option, its values (the default first) and which expansion it belongs to.
export const OPTIONS = [
  { id: 'hills.tiebreak', expansion: 'hills_and_sheep', label: 'Hill tie-break', values: ['any_on_hill', 'count_on_hill'],
    words: ['a follower on a hill wins a tie', 'most followers on hills win a tie'] },
  { id: 'hills.under_tile', expansion: 'hills_and_sheep', label: 'Tile under a hill', values: ['from_supply', 'none'],
    words: ['one from the supply', 'none'] },
  { id: 'sheep.closed_field', expansion: 'hills_and_sheep', label: 'Flock on a closed field', values: ['score_immediately', 'wait'],
    words: ['scores at once', 'waits for Gather'] },
  { id: 'gifts.receipt_owners', expansion: 'gifts', label: 'Who owns a feature for a gift', values: ['with_tiebreak', 'followers_only'],
    words: ['majority, ties broken', 'followers only'] },
  { id: 'revolts.protect_for_2', expansion: 'peasant_revolts', label: 'Protection for 2 blocked by', values: ['no_figure_deployed', 'no_follower_deployed'],
    words: ['any figure placed', 'a follower placed'] },
  { id: 'revolts.extra_draws_trigger', expansion: 'peasant_revolts', label: 'Take 2 extra draws revolt', values: [true, false],
    words: ['yes', 'no'] },
  { id: 'easter.variant', expansion: 'easter', label: 'Rules', values: ['hig', 'original'], words: ['HiG edition', 'original'] },
  { id: 'easter.nest_timing', expansion: 'easter', label: 'Nest scoring', values: ['after_scoring', 'during_scoring'],
    words: ['after the other scoring', 'with the other scoring'] },
  { id: 'easter.hops', expansion: 'easter', label: 'Bunny hops', values: ['die', 'fixed_2'], words: ['roll a die', 'always 2'] },
  { id: 'easter.second_place', expansion: 'easter', label: 'Second place for eggs', values: ['dense', 'competition'],
    words: ['next best count', 'after the tied first'] },
  { id: 'easter.shepherd_eggs', expansion: 'easter', label: 'Shepherds collect eggs', values: [true, false], words: ['yes', 'no'] },
  { id: 'festival.return_scope', expansion: 'festival', label: 'Figures taken back', values: ['any_figure', 'followers_only'],
    words: ['any figure', 'followers only'] },
  { id: 'festival.shepherd_flock', expansion: 'festival', label: "A returned shepherd's flock", values: ['return_to_bag', 'stays'],
    words: ['goes back to the bag', 'stays on the field'] },
];
// An option's value in words, as the lobby's menus show it.
export const optionWords = (o, i) => `${o.words?.[i] ?? String(o.values[i])}${i === 0 ? ' (usual)' : ''}`;

export const CARDS = {
  synod: 'Synod',
  road_sweeper: 'Road Sweeper',
  cash_out: 'Cash Out',
  change_position: 'Change Position',
  take_two: 'Take 2',
};
export const cardName = (id) => CARDS[id] ?? id;

export const CARD_HELP = {
  synod: 'put a follower from your supply on a monastery',
  road_sweeper: 'score a road now and send its followers home',
  cash_out: 'take a follower back for 2 points per follower on its feature',
  change_position: 'move a follower to another feature of its tile',
  take_two: 'draw a second tile and choose one',
};

export function kindOfFeature(featureId) {
  const m = /^([a-z]+)\d*$/.exec(featureId ?? '');
  return m ? m[1] : featureId;
}

// Farmers stand in fields, thieves on roads, knights in cities, monks in monasteries.
export function featureWords(featureId) {
  return { city: 'city', road: 'road', field: 'field', monastery: 'monastery' }[kindOfFeature(featureId)] ?? featureId;
}

// The Okabe-Ito palette, safe for the common colour blindnesses; each seat also has a letter
// drawn on its figures, so that colour is never the only cue.
export const SEAT_COLOURS = ['#d55e00', '#0072b2', '#f0e442', '#1a1a1a', '#cc79a7', '#56b4e9'];
export const SEAT_COLOUR_NAMES = ['orange', 'blue', 'yellow', 'black', 'pink', 'sky blue'];
export const SEAT_INK = ['#fff', '#fff', '#1a1a1a', '#fff', '#1a1a1a', '#1a1a1a'];
export const seatInk = (seat) => SEAT_INK[seat % SEAT_INK.length];
export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

export const TOKENS = { sheep1: '1 sheep', sheep2: '2 sheep', sheep3: '3 sheep', sheep4: '4 sheep', wolf: 'the wolf' };

export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// A tile type in words, from its features (the catalogue's topology): "a monastery with a road",
// "a city on 2 sides and a road". Used by the log and the buttons instead of tile codes.
export function tileWords(type) {
  if (!type) return 'a tile';
  const f = type.features ?? [];
  const cities = f.filter((x) => x.type === 'city');
  const roads = f.filter((x) => x.type === 'road');
  const parts = [];
  if (type.monastery || f.some((x) => x.type === 'monastery')) parts.push('a monastery');
  if (cities.length === 1) {
    const n = cities[0].edges?.length ?? 1;
    parts.push(n === 4 ? 'a walled city all round' : n === 1 ? 'a city edge' : `a city on ${n} sides`);
  } else if (cities.length > 1) parts.push(`${cities.length} city edges`);
  if (roads.length === 1 && (roads[0].edges?.length ?? 0) === 2 && !parts.length) parts.push('a road');
  else if (roads.length === 1) parts.push(roads[0].edges?.length === 1 ? 'a road end' : 'a road');
  else if (roads.length > 1) parts.push(`a crossing of ${roads.length} roads`);
  const symbols = [];
  if (type.hill) symbols.push('hill');
  if (type.vineyard) symbols.push('vineyard');
  if (!parts.length) parts.push('a field');
  let text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  if (symbols.length) text += ` (${symbols.join(', ')})`;
  return text;
}
