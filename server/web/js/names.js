// Words for the game's ids: expansions and their rule options (from the server), feature kinds,
// and the seats' colours. An expansion's own words are in its file (expansions.js loads them).
import { expansionWords, loadExpansions } from './expansions.js';

// The expansions and their rule options come from the server (/api/options, the engine's
// modules): [id, label] pairs, and every option with its expansion, label, values (the default
// first) and their words. Filled once by loadVocabulary() before the page renders.
export const EXPANSIONS = [];
export const OPTIONS = [];
export const expansionName = (id) => EXPANSIONS.find(([k]) => k === id)?.[1] ?? id;

export async function loadVocabulary() {
  if (EXPANSIONS.length) return;
  const res = await fetch('/api/options');
  if (!res.ok) throw new Error(`/api/options: HTTP ${res.status}`);
  const data = await res.json();
  for (const x of data.expansions) {
    EXPANSIONS.push([x.id, x.label]);
    for (const o of x.options) OPTIONS.push({ ...o, expansion: x.id });
  }
  await loadExpansions(data.expansions.map((x) => x.id));
}
// An option's value in words, as the lobby's menus show it.
export const optionWords = (o, i) => `${o.words?.[i] ?? String(o.values[i])}${i === 0 ? ' (usual)' : ''}`;

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
  const symbols = expansionWords('tileSymbols', type);
  if (!parts.length) parts.push('a field');
  let text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  if (symbols.length) text += ` (${symbols.join(', ')})`;
  return text;
}
