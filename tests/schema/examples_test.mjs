#!/usr/bin/env node
// Every JSON example of docs/protocol.md against the wire schema (docs/schema/):
//   node tests/schema/examples_test.mjs [ws://HOST:PORT/ws [path/to/carcassonne]]
// `→ {...}` lines are client messages, `← {...}` lines server messages; fenced ```json blocks
// and indented JSON are classified by their shape (a message, a view, a game part, a list of
// events, a move, a room summary, a record); JSON that is only a part of something (with "…")
// cannot be parsed and is counted as skipped. With a server URL it then sends the documented
// bad-input cases (tests/schema/bad_input.mjs) and checks that the schema and the server agree.
// Exit 0 when all pass, 1 with every failure listed.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadWireSchema } from './wire_schema.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const doc = readFileSync(resolve(here, '../../docs/protocol.md'), 'utf8').split('\n');
const wire = loadWireSchema();
const failures = [];
const counts = {};
let skipped = 0;

function classify(value) {
  if (Array.isArray(value)) return value.length && value.every((e) => e && typeof e.type === 'string') ? 'events' : null;
  if (!value || typeof value !== 'object') return null;
  if (value.format === 'carcassonne-record/1') return 'record';
  if ('room' in value && 'game' in value && !('type' in value)) return 'view';
  if ('board' in value && 'status' in value) return 'game';
  if ('error' in value && !('type' in value)) return null;  // `carcassonne replay`'s output, not wire
  if ('taken' in value && 'spectator_delay' in value) return 'room_summary';
  if (typeof value.type === 'string') {
    if (wire.check('move', value) === null || ['place_tile', 'deploy', 'pass', 'flock', 'return_figure', 'protect',
      'bunny', 'open_gift', 'choose_tile'].includes(value.type)) return 'move';
    return 'server';
  }
  return null;
}

function validate(kind, value, line) {
  counts[kind] = (counts[kind] ?? 0) + 1;
  // `carcassonne replay --as` prints the game part with the number of moves added (§6).
  if (kind === 'game' && 'moves' in value) { value = { ...value }; delete value.moves; }
  const bad = wire.check(kind, value);
  if (bad) failures.push(`docs/protocol.md:${line}: ${bad}`);
}

for (let n = 0; n < doc.length; ++n) {
  const line = doc[n];
  const arrow = /^\s*([→←]) (.*)$/.exec(line);
  if (arrow) {
    let value;
    try { value = JSON.parse(arrow[2]); } catch { skipped++; continue; }
    validate(arrow[1] === '→' ? 'client' : 'server', value, n + 1);
    continue;
  }
  if (line.trim() === '```json') {
    const start = n + 1;
    let text = '';
    for (++n; n < doc.length && doc[n].trim() !== '```'; ++n) text += doc[n] + '\n';
    let value;
    try { value = JSON.parse(text); } catch { skipped++; continue; }
    const kind = classify(value);
    if (kind) validate(kind, value, start); else skipped++;
    continue;
  }
  // Indented JSON, maybe over several lines (lists of events).
  if (/^ {4}[{[]/.test(line) && !/^ {4}[{[].*[…]/.test(line)) {
    const start = n + 1;
    let text = line;
    let value;
    for (;;) {
      try { value = JSON.parse(text); break; } catch { /* more lines */ }
      if (n + 1 >= doc.length || !/^ {4,}\S/.test(doc[n + 1])) break;
      text += '\n' + doc[++n];
    }
    const kind = value === undefined ? null : classify(value);
    if (kind) validate(kind, value, start); else skipped++;
  }
}

// The game records of the tests (tests/records/, tests/web/records/) are records too.
for (const dir of ['../records', '../web/records']) {
  let names = [];
  try { names = readdirSync(resolve(here, dir)).filter((f) => f.endsWith('.json')); } catch { /* none */ }
  for (const name of names) {
    const value = JSON.parse(readFileSync(resolve(here, dir, name), 'utf8'));
    if (value.format !== 'carcassonne-record/1') continue;
    counts.record_file = (counts.record_file ?? 0) + 1;
    const bad = wire.check('record', value);
    if (bad) failures.push(`tests/${dir.slice(3)}/${name}: ${bad}`);
  }
}

// The AsyncAPI document: every message of both directions, each payload a schema of the files.
{
  const api = JSON.parse(readFileSync(resolve(here, '../../docs/schema/asyncapi.json'), 'utf8'));
  const pointer = (ref) => ref.slice(2).split('/').reduce((o, k) => o?.[k], api);
  if (api.asyncapi !== '3.0.0') failures.push('asyncapi.json: not an AsyncAPI 3.0.0 document');
  const listed = new Set();
  for (const op of Object.values(api.operations)) {
    for (const m of op.messages) {
      const message = pointer(pointer(m.$ref)?.$ref ?? '');
      if (!message) { failures.push(`asyncapi.json: ${m.$ref} names no message`); continue; }
      const ref = message.payload.schema.$ref;
      if (!wire.resolves(ref)) failures.push(`asyncapi.json: ${ref} names no schema`);
      listed.add(ref);
    }
  }
  for (const side of ['client', 'server']) {
    const schema = JSON.parse(readFileSync(resolve(here, `../../docs/schema/${side}.json`), 'utf8'));
    for (const name of schema.$defs.message.properties.type.enum)
      if (!listed.has(`${side}.json#/$defs/${name}`)) failures.push(`asyncapi.json: no ${side} message '${name}'`);
  }
  counts.asyncapi_message = listed.size;
}

// With the binary, the views of every test record, midway as each seat sees it and at the end
// as a spectator sees it (`carcassonne replay CUT --as S --events`): every expansion's view parts and
// events, as the engine makes them, against the schema.
const bin = process.argv[3];
if (bin) {
  const work = mkdtempSync(resolve(tmpdir(), 'schema-replay-'));
  for (const name of readdirSync(resolve(here, '../records')).filter((f) => f.endsWith('.json'))) {
    const record = JSON.parse(readFileSync(resolve(here, '../records', name), 'utf8'));
    const n = record.moves.length;
    // Midway as every seat (its legal moves, its hand), and the end as a spectator.
    for (const [cut, viewers] of [[Math.floor(n / 2), [...record.setup.players.keys()]], [n, ['spectator']]]) {
      const file = resolve(work, 'cut.json');
      writeFileSync(file, JSON.stringify({ ...record, moves: record.moves.slice(0, cut) }));
      for (const as of viewers) {
        const run = spawnSync(bin, ['replay', file, '--as', String(as), '--events'], { encoding: 'utf8' });
        if (run.status !== 0) continue;  // a cut the record's expectations do not allow
        const game = JSON.parse(run.stdout);
        const { events, moves, ...view } = game;
        counts.replayed_view = (counts.replayed_view ?? 0) + 1;
        for (const [kind, value] of [['game', view], ['events', events]]) {
          const bad = wire.check(kind, value);
          if (bad) failures.push(`replay of tests/records/${name} cut at ${cut} as ${as}: ${bad}`);
        }
      }
    }
  }
  rmSync(work, { recursive: true, force: true });
}

const url = process.argv[2];
if (url && url !== '-') {
  const { checkBadInput } = await import('./bad_input.mjs');
  failures.push(...await checkBadInput(url, wire));
}

const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
if (failures.length) {
  console.error(`schema_examples: FAIL (${failures.length}):\n${failures.join('\n')}`);
  process.exit(1);
}
// Not vacuous: the page has about 50 client and 90 server frames.
if ((counts.client ?? 0) < 40 || (counts.server ?? 0) < 80) {
  console.error(`schema_examples: FAIL: too few examples found (${summary})`);
  process.exit(1);
}
console.log(`schema_examples: ok: ${summary} valid; ${skipped} fragments skipped`);
