// @ts-check
// The Carcassonne client (clients/typescript/README.md). Plain ES modules with JSDoc types; the
// wire's types are in ./wire.d.ts, generated from docs/schema.
export { Client } from './client.js';
export { Connection, ConnectionLost } from './connection.js';
export { Pacer } from './pacer.js';
export { applyPatch } from './patch.js';
export { Backoff } from './backoff.js';
