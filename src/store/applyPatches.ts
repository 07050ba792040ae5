/**
 * The reducer's patch applier: Immer's patch format, applied with copy-on-write so that every
 * container on a patched path is copied once per write and everything else keeps its identity.
 *
 * Immer's own applyPatches would also work for ordinary keys, but it deep-copies each patch value
 * and refuses paths through `__proto__`/`constructor`, which are ordinary pks here (BEHAVIOR §1.6).
 * The slice's maps (the top-level maps and the tables in them) are null-prototype objects, so such
 * keys are plain own properties there.
 */

import { copyDict, setOwn } from '../shared/dict.js';
import { isDevelopment } from '../shared/env.js';
import type { Patch } from '../shared/patch.js';
import { recordTableDiff } from '../shared/tableDiffs.js';

export function applyPatches<S>(state: S, patches: readonly Patch[]): S {
  const copied = new Set<object>();
  let root: unknown = state;
  for (const patch of patches) {
    const { path } = patch;
    if (path.length === 0) {
      if (patch.op === 'remove') throw new Error('lenscache: a patch cannot remove the whole state');
      root = toStateShape(patch.value, path);
      copied.clear();
      continue;
    }
    root = writable(root, copied);
    let parent = root as Record<string | number, unknown>;
    for (let i = 0; i < path.length - 1; i++) {
      const child = writable(parent[path[i]!], copied);
      parent[path[i]!] = child;
      parent = child as Record<string | number, unknown>;
    }
    applyOne(parent, path[path.length - 1]!, patch, path);
  }
  recordDiffs(state, root, patches);
  // In development the state is frozen as it is made, as Immer would: a mutation then fails
  // loudly, and Redux's dev checks skip frozen subtrees instead of walking the whole cache.
  if (isDevelopment()) {
    for (const container of copied) Object.freeze(container);
    for (const patch of patches) if (typeof patch.value === 'object' && patch.value !== null) Object.freeze(patch.value);
  }
  return root as S;
}

/** Tells the read memo which rows of which tables this write changed (tableDiffs.ts). */
function recordDiffs(before: unknown, after: unknown, patches: readonly Patch[]): void {
  const keysByTable = new Map<string, string[] | null>();
  for (const { path } of patches) {
    if (path.length === 0) return;
    if (path[0] !== 'entities') continue;
    const table = path[1] as string | undefined;
    if (table === undefined) return;
    // A table written whole, or a path into a row, is not a change of rows by key.
    if (path.length !== 3) keysByTable.set(table, null);
    else {
      const keys = keysByTable.get(table);
      if (keys === undefined) keysByTable.set(table, [String(path[2])]);
      else if (keys !== null) keys.push(String(path[2]));
    }
  }
  const from = (before as { entities?: Record<string, object | undefined> }).entities;
  const to = (after as { entities?: Record<string, object | undefined> }).entities;
  for (const [table, keys] of keysByTable) {
    const previous = from?.[table];
    const next = to?.[table];
    if (keys && previous && next && previous !== next) recordTableDiff(previous, next, keys);
  }
}

function applyOne(parent: Record<string | number, unknown>, key: string | number, patch: Patch, path: Patch['path']): void {
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (patch.op === 'add') parent.splice(index, 0, patch.value);
    else if (patch.op === 'replace') parent[index] = patch.value;
    else parent.splice(index, 1);
    return;
  }
  if (patch.op === 'remove') {
    delete parent[key];
  } else {
    setOwn(parent, String(key), toStateShape(patch.value, path));
  }
}

/** A copy of `value` this write may change (copied at most once per write, prototype kept). */
function writable(value: unknown, copied: Set<object>): object {
  if (typeof value !== 'object' || value === null) {
    throw new Error('lenscache: a patch path passes through a value that is not an object');
  }
  if (copied.has(value)) return value;
  let copy: object;
  if (Array.isArray(value)) copy = value.slice();
  // Both copies keep `__proto__` keys as own data: see copyDict, and spread defines properties.
  else if (Object.getPrototypeOf(value) === null) copy = copyDict(value as Record<string, unknown>);
  else copy = { ...value };
  copied.add(copy);
  return copy;
}

const TABLE_MAPS = new Set(['entities', 'entitiesMeta']);

/** Values that land where the slice keeps maps (its four maps, and tables) become null-prototype maps. */
function toStateShape(value: unknown, path: Patch['path']): unknown {
  if (path.length === 0 && isObject(value)) {
    const state = { ...(value as Record<string, unknown>) };
    for (const name of ['entities', 'entitiesMeta', 'endpoints', 'meta']) {
      if (name in state) state[name] = toStateShape(state[name], [name]);
    }
    return state;
  }
  if (path.length === 1) {
    const name = path[0] as string;
    if (TABLE_MAPS.has(name)) return toDict(value, table => toDict(table));
    if (name === 'endpoints' || name === 'meta') return toDict(value);
  }
  if (path.length === 2 && TABLE_MAPS.has(path[0] as string)) return toDict(value);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toDict(value: unknown, mapValue: (item: unknown) => unknown = item => item): unknown {
  if (!isObject(value) || Object.getPrototypeOf(value) === null) return value;
  const dict: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) dict[key] = mapValue(value[key]);
  return dict;
}
