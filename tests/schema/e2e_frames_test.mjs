#!/usr/bin/env node
// The frames of the C++ end-to-end tests against the wire schema (docs/schema/):
//   node tests/schema/e2e_frames_test.mjs build/tests/e2e_frames.jsonl [more logs...]
// Each file is a frame log of e2e_tests (tests/e2e/frame_log.hpp): every distinct text its clients
// sent and received, each frame sent with the server's answer to it when one was read, and each
// client's last view. Checked with the Node tests' validator (tests/schema/wire_schema.mjs):
// - every server frame and every view matches the schema;
// - a client frame the schema refuses was answered with a shape error (SHAPE_ERRORS; or
//   wrong_seat for a move's `seat`, checked first; or the code of a member the server checks
//   whole, MEMBER_ERRORS), and a frame answered with a shape error is one the schema refuses, as
//   in node_client.mjs and bad_input.mjs;
// - a client frame the schema refuses whose answer was not read fails too: a test that sends bad
//   input reads the answer;
// - a client frame that is not JSON is not validated; its answer, when read, is bad_json.
// Answers that come before the server looks at a frame's shape (rate_limited) check nothing.
// Exit 0 when all pass, 1 listing the failures grouped by error (each with its frame, truncated).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { SHAPE_ERRORS, loadWireSchema } from './wire_schema.mjs';

// The codes of members the server checks whole, for their shape and for its rules alike (an
// unknown key or a value out of range, or a combination no table can play): a frame the schema
// refuses may be answered with them, and so may one it accepts.
const MEMBER_ERRORS = new Set(['bad_seek', 'bad_match_options', 'bad_tournament']);
// Answers that say nothing of a frame's shape: the server refused it before reading it.
const BEFORE_SHAPE = new Set(['error:rate_limited']);
// Refusals by the rules that bad_message words, which no schema can know (docs/protocol.md):
// a join without a name, which only a signed-in connection may send (§4, §23); a replay's
// `move` past the game's moves (§4).
const BY_RULE = {
  join: (frame) => !('name' in frame),
  replay: () => true,
};
const byState = (frame, code) => code === 'bad_message' && BY_RULE[frame?.type]?.(frame) === true;

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: e2e_frames_test.mjs FRAME_LOG...');
  process.exit(2);
}
const started = Date.now();
const wire = loadWireSchema();
const failures = new Map();  // what failed -> { n, frame }
const counts = {};
const totals = { server: 0, client: 0 };
const unfinished = [];  // the logs without their totals line
const count = (what) => { counts[what] = (counts[what] ?? 0) + 1; };
const cut = (text, n = 300) => (text.length > n ? `${text.slice(0, n)}… (${text.length} characters)` : text);
function fail(what, text) {
  const f = failures.get(what);
  if (f) f.n++; else failures.set(what, { n: 1, frame: cut(text) });
}

function checkClient(text, answer) {
  let frame;
  try { frame = JSON.parse(text); } catch {
    count('client_not_json');
    if (answer !== null && answer !== 'error:bad_json') fail(`a client frame that is not JSON was answered ${answer}, not bad_json`, text);
    return;
  }
  const refusal = wire.check('client', frame);
  if (answer === null) {
    count(refusal ? 'client_refused_unanswered' : 'client_unanswered');
    if (refusal) fail(`sent ${refusal}; its answer was not read (the server's verdict is unknown)`, text);
    return;
  }
  if (BEFORE_SHAPE.has(answer)) { count('client_answered_before_shape'); return; }
  const code = answer.startsWith('error:') ? answer.slice(6) : null;
  if (code !== null && (MEMBER_ERRORS.has(code) || (refusal === null && byState(frame, code)))) {
    count(refusal ? 'client_refused_for_shape' : 'client_answered');
    return;
  }
  // A move's `seat` is checked against the sender's seat before the move's shape: a seat out of
  // range or not an integer is wrong_seat there, a refusal the schema makes too.
  const shape = code !== null && (SHAPE_ERRORS.has(code) || (code === 'wrong_seat' && refusal !== null && refusal.includes(' /move/seat ')));
  count(shape ? 'client_refused_for_shape' : 'client_answered');
  if (shape && refusal === null) fail(`the server refused a client '${frame?.type}' frame for its shape (${code}); the schema accepts it`, text);
  if (!shape && refusal !== null) fail(`sent ${refusal}; the server answered ${answer}`, text);
}

for (const file of files) {
  let finished = false;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    let record;
    try { record = JSON.parse(line); } catch { fail('a line of the log is cut: e2e_tests did not finish', line); continue; }
    if (record.d === 'totals') {
      finished = true;
      totals.server += record.server ?? 0;
      totals.client += record.client ?? 0;
      continue;
    }
    count(record.d);
    if (record.d === 'client') { checkClient(record.f, record.a ?? null); continue; }
    let value;
    try { value = JSON.parse(record.f); } catch { fail(`a ${record.d} frame is not JSON`, record.f); continue; }
    const bad = wire.check(record.d === 'view' ? 'view' : 'server', value);
    if (bad) fail(record.d === 'view' ? `a view patched together: ${bad}` : `received ${bad}`, record.f);
  }
  if (!finished) unfinished.push(file);
}

const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
const seen = ` (of ${totals.server} frames received, ${totals.client} sent)`;
if (failures.size) {
  const list = [...failures].slice(0, 40).map(([what, f]) => `- ${what}${f.n > 1 ? ` (${f.n} frames)` : ''}\n    ${f.frame}`);
  console.error(`e2e_wire_schema: FAIL: ${failures.size} kinds of mismatch between e2e_tests' frames and docs/schema/:\n` +
    `${list.join('\n')}${failures.size > 40 ? `\n… and ${failures.size - 40} more` : ''}\n(distinct: ${summary}${seen})`);
  process.exit(1);
}
if (unfinished.length) {
  console.error(`e2e_wire_schema: FAIL: ${unfinished.join(', ')} has no totals: e2e_tests did not finish (${summary})`);
  process.exit(1);
}
// Not vacuous: the suite plays hundreds of games and sends the errors tests' bad input.
if ((counts.server ?? 0) < 1000 || (counts.client_answered ?? 0) < 300 || (counts.client_refused_for_shape ?? 0) < 5 ||
    (counts.view ?? 0) < 50) {
  console.error(`e2e_wire_schema: FAIL: too few frames in ${files.join(', ')} (${summary})`);
  process.exit(1);
}
console.log(`e2e_wire_schema: ok in ${Date.now() - started} ms: distinct ${summary}${seen}`);
