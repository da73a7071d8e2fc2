// @ts-check
// JSON Patch (RFC 6902) as the server uses it (docs/protocol.md §7): add, remove and replace,
// in order, on a copy of the document. Throws on a path through a non-container (the caller
// then asks for a snapshot).

/** @typedef {import('./wire').PatchOp} PatchOp */

/**
 * @template T
 * @param {T} doc
 * @param {readonly PatchOp[]} ops
 * @returns {T}
 */
export function applyPatch(doc, ops) {
  /** @type {any} */
  const root = { '': structuredClone(doc) };
  for (const op of ops) {
    const tokens = op.path === '' ? [] : op.path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let parent = root;
    let key = '';
    for (const t of tokens) {
      parent = parent[key];
      key = t;
    }
    if (parent === null || typeof parent !== 'object') throw new Error(`patch path ${op.path} goes through a non-container`);
    const value = 'value' in op ? op.value : undefined;
    if (Array.isArray(parent)) {
      const i = key === '-' ? parent.length : Number(key);
      if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new Error(`patch path ${op.path}: no such index`);
      if (op.op === 'add') parent.splice(i, 0, value);
      else if (op.op === 'remove') parent.splice(i, 1);
      else parent[i] = value; // replace
    } else if (op.op === 'remove') delete parent[key];
    else parent[key] = value; // add, replace
  }
  return root[''];
}
