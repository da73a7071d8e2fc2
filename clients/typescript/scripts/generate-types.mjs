#!/usr/bin/env node
// Writes src/wire.d.ts: a TypeScript type for every definition of the wire schema (docs/schema/,
// JSON Schema 2020-12), so that the client's types follow the wire. No dependency: the schema
// uses a small set of keywords (listed in `KNOWN`); a new keyword fails here rather than being
// typed loosely without notice.
//   node scripts/generate-types.mjs            write src/wire.d.ts
//   node scripts/generate-types.mjs --check    exit 1 when src/wire.d.ts is not what it writes
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const schemaDir = join(here, '../../../docs/schema');
const output = join(here, '../src/wire.d.ts');

// File -> prefix of its type names; some definitions get a plain name of their own.
const FILES = { envelope: 'Envelope', client: 'Client', server: 'Server', view: '', events: 'Event', moves: 'Move', record: 'Record' };
const NAMES = {
  'client#message': 'ClientMessage', 'server#message': 'ServerMessage', 'view#view': 'View',
  'events#event': 'Event', 'events#events': 'Events', 'moves#move': 'Move', 'moves#legal_move': 'LegalMove',
  'record#record': 'Record', 'envelope#error': 'ErrorFrame', 'envelope#error_code': 'ErrorCode', 'envelope#id': 'Id',
};
// Keywords that only constrain values (lengths, ranges, patterns) or document: not in the types.
const IGNORED = new Set(['description', 'title', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern',
  'minItems', 'maxItems', 'discriminator', 'examples', 'format', 'default', '$comment']);
const KNOWN = new Set([...IGNORED, '$ref', 'type', 'const', 'enum', 'properties', 'required', 'additionalProperties',
  'unevaluatedProperties', 'items', 'prefixItems', 'anyOf', 'oneOf', 'if', 'then', 'else']);

const pascal = (s) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
const typeName = (file, def) => NAMES[`${file}#${def}`] ?? FILES[file] + pascal(def);
const lit = (v) => JSON.stringify(v);
const key = (k) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : lit(k));
const comment = (text, indent) => {
  if (!text) return '';
  const body = text.replace(/\*\//g, '*\\/').split('\n').join(`\n${indent} * `);
  return `${indent}/** ${body} */\n`;
};

function refName(ref, file) {
  const m = /^(?:([a-z_]+)\.json)?#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref);
  if (!m) throw new Error(`${file}: unsupported $ref ${ref}`);
  return typeName(m[1] ?? file, m[2]);
}

function typeOf(s, file, indent) {
  if (s === true || (typeof s === 'object' && Object.keys(s).every((k) => IGNORED.has(k)))) return 'unknown';
  if (s === false) return 'never';
  for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`${file}: keyword ${k} is not known to the generator`);
  const parts = [];
  if (s.$ref) {
    const named = refName(s.$ref, file);
    const extra = (s.required ?? []).filter((r) => !(s.properties && r in s.properties));
    parts.push(extra.length ? `WithRequired<${named}, ${extra.map(lit).join(' | ')}>` : named);
    if (s.properties) parts.push(objectType({ ...s, required: (s.required ?? []).filter((r) => !extra.includes(r)), additionalProperties: undefined }, file, indent));
  } else if ('const' in s) parts.push(lit(s.const));
  else if (s.enum) parts.push(s.enum.map(lit).join(' | '));
  else if (s.oneOf || s.anyOf) parts.push(`(${(s.oneOf ?? s.anyOf).map((x) => typeOf(x, file, indent)).join(' | ')})`);
  else if (s.if) parts.push(`(${typeOf(s.then ?? true, file, indent)} | ${typeOf(s.else ?? true, file, indent)})`);
  else parts.push(plainType(s, file, indent));
  return parts.length === 1 ? parts[0] : parts.join(' & ');
}

function plainType(s, file, indent) {
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [s.properties ? 'object' : s.items || s.prefixItems ? 'array' : 'any'];
  const one = (t) => {
    switch (t) {
      case 'string': return 'string';
      case 'integer': case 'number': return 'number';
      case 'boolean': return 'boolean';
      case 'null': return 'null';
      case 'array':
        if (s.prefixItems) return `[${s.prefixItems.map((x) => typeOf(x, file, indent)).join(', ')}]`;
        return s.items ? `Array<${typeOf(s.items, file, indent)}>` : 'unknown[]';
      case 'object': return objectType(s, file, indent);
      case 'any': return 'unknown';
      default: throw new Error(`${file}: type ${t}`);
    }
  };
  return types.length === 1 ? one(types[0]) : `(${types.map(one).join(' | ')})`;
}

function objectType(s, file, indent) {
  const inner = `${indent}  `;
  const required = new Set(s.required ?? []);
  const lines = Object.entries(s.properties ?? {}).map(([k, v]) =>
    `${comment(typeof v === 'object' ? v.description : '', inner)}${inner}${key(k)}${required.has(k) ? '' : '?'}: ${typeOf(v, file, inner)};`);
  const extra = s.additionalProperties ?? s.unevaluatedProperties;
  if (typeof extra === 'object') lines.push(`${inner}[key: string]: ${typeOf(extra, file, inner)};`);
  else if (!s.properties && extra !== false) lines.push(`${inner}[key: string]: unknown;`);
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
}

export function generate() {
  let out = `// Generated from docs/schema/*.json by clients/typescript/scripts/generate-types.mjs: do not
// edit. \`npm run generate\` writes it again; the tests fail when it differs from the schema.

/** \`T\` with the members \`K\` present (the schema's \`required\` next to a \`$ref\`). */
export type WithRequired<T, K extends PropertyKey> = T extends unknown
  ? T & { [P in K & keyof T]-?: Exclude<T[P], undefined> }
  : never;
`;
  for (const file of Object.keys(FILES)) {
    const schema = JSON.parse(readFileSync(join(schemaDir, `${file}.json`), 'utf8'));
    out += `\n// ---- ${file}.json: ${schema.title ?? ''}\n`;
    for (const [def, s] of Object.entries(schema.$defs ?? {})) {
      out += `\n${comment(s.description, '')}export type ${typeName(file, def)} = ${typeOf(s, file, '')};\n`;
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = generate();
  if (process.argv.includes('--check')) {
    let old = '';
    try { old = readFileSync(output, 'utf8'); } catch { /* missing: differs */ }
    if (old !== text) {
      console.error('src/wire.d.ts differs from what docs/schema gives: run `npm run generate` in clients/typescript');
      process.exit(1);
    }
  } else writeFileSync(output, text);
}
