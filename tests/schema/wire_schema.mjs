// The wire schema of docs/schema/ (JSON Schema 2020-12) loaded into Ajv, for the Node tests:
// every frame they send or receive is checked against it. Ajv comes from tests/web/node_modules
// (pinned by tests/web/package-lock.json; tests/schema/ensure_ajv.sh installs it).
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const schemaDir = resolve(here, '../../docs/schema');
const require = createRequire(resolve(here, '../web/package.json'));

// The codes by which the server refuses a client frame for its shape: a frame the schema refuses
// is answered with one of them, and one answered with one of them is refused by the schema
// (docs/protocol.md §17 "The schema"; a move's `seat` is checked first, answered wrong_seat).
export const SHAPE_ERRORS = new Set(['bad_message', 'unknown_type', 'malformed_move', 'bad_rotation', 'bad_nonce']);

// { check(direction, frame) }: null when `frame` is valid, else a message naming its type and
// the failing schema path. direction: 'client' (client to server) or 'server'.
export function loadWireSchema() {
  const Ajv2020 = require('ajv/dist/2020').default;
  const addFormats = require('ajv-formats').default;
  const ajv = new Ajv2020({ discriminator: true, allErrors: false, strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv);
  for (const name of readdirSync(schemaDir).filter((n) => n.endsWith('.json') && n !== 'asyncapi.json'))
    ajv.addSchema(JSON.parse(readFileSync(resolve(schemaDir, name), 'utf8')));
  const validators = {
    client: ajv.getSchema('client.json#/$defs/message'),
    server: ajv.getSchema('server.json#/$defs/message'),
    view: ajv.getSchema('view.json#/$defs/view'),
    game: ajv.getSchema('view.json#/$defs/game'),
    events: ajv.getSchema('events.json#/$defs/events'),
    move: ajv.getSchema('moves.json#/$defs/move'),
    legal_move: ajv.getSchema('moves.json#/$defs/legal_move'),
    record: ajv.getSchema('record.json#/$defs/record'),
    room_summary: ajv.getSchema('view.json#/$defs/room_summary'),
  };
  return {
    // Whether a reference such as "client.json#/$defs/hello" names a schema.
    resolves(ref) {
      try { return Boolean(ajv.getSchema(ref)); } catch { return false; }
    },
    check(kind, value) {
      const validate = validators[kind];
      if (validate(value)) return null;
      const e = validate.errors[0];
      const what = value && typeof value === 'object' && typeof value.type === 'string' ? `'${value.type}'` : 'value';
      return `${kind} ${what} does not match the schema: ${e.instancePath || '(root)'} ${e.message}` +
        `${e.params && Object.keys(e.params).length ? ' ' + JSON.stringify(e.params) : ''} (schema path ${e.schemaPath})`;
    },
  };
}
