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
  { id: 'hills.tiebreak', expansion: 'hills_and_sheep', label: 'Hill tie-break', values: ['any_on_hill', 'count_on_hill'] },
  { id: 'hills.under_tile', expansion: 'hills_and_sheep', label: 'Tile under a hill', values: ['from_supply', 'none'] },
  { id: 'sheep.closed_field', expansion: 'hills_and_sheep', label: 'Flock on a closed field', values: ['score_immediately', 'wait'] },
  { id: 'gifts.receipt_owners', expansion: 'gifts', label: 'Who owns a feature for a gift', values: ['with_tiebreak', 'followers_only'] },
  { id: 'revolts.protect_for_2', expansion: 'peasant_revolts', label: 'Protection for 2 blocked by', values: ['no_figure_deployed', 'no_follower_deployed'] },
  { id: 'revolts.extra_draws_trigger', expansion: 'peasant_revolts', label: 'Take 2 extra draws revolt', values: [true, false] },
  { id: 'easter.variant', expansion: 'easter', label: 'Rules', values: ['hig', 'original'] },
  { id: 'easter.nest_timing', expansion: 'easter', label: 'Nest scoring', values: ['after_scoring', 'during_scoring'] },
  { id: 'easter.hops', expansion: 'easter', label: 'Bunny hops', values: ['die', 'fixed_2'] },
  { id: 'easter.second_place', expansion: 'easter', label: 'Second place for eggs', values: ['dense', 'competition'] },
  { id: 'easter.shepherd_eggs', expansion: 'easter', label: 'Shepherds collect eggs', values: [true, false] },
  { id: 'festival.return_scope', expansion: 'festival', label: 'Figures taken back', values: ['any_figure', 'followers_only'] },
  { id: 'festival.shepherd_flock', expansion: 'festival', label: "A returned shepherd's flock", values: ['return_to_bag', 'stays'] },
];

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

export const SEAT_COLOURS = ['#d62f2f', '#2f6fd6', '#2a9d3c', '#e0b11c', '#222222', '#8e44ad'];
export const SEAT_COLOUR_NAMES = ['red', 'blue', 'green', 'yellow', 'black', 'purple'];
export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

export const TOKENS = { sheep1: '1 sheep', sheep2: '2 sheep', sheep3: '3 sheep', sheep4: '4 sheep', wolf: 'the wolf' };

export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
