/**
 * The reducer's patch applier, and the slice's live shape it keeps: Immer's patch format, applied
 * with copy-on-write so that every container on a patched path is copied once per write and
 * everything else keeps its identity.
 *
 * Immer's own applyPatches would also work for ordinary keys, but it deep-copies each patch value
 * and refuses paths through `__proto__`/`constructor`, which are ordinary pks here. The slice's
 * maps (the top-level maps and the tables in them) are null-prototype objects, so such keys are
 * plain own properties there (docs/architecture.md, "State shape"); a map or table written whole
 * is given that shape, and so is a slice restored from JSON (toLiveShape), whose maps and tables
 * are ordinary objects.
 *
 * A patch list that does not fit the slice (a hand-written action, an action replayed by DevTools
 * onto a state that lacks what it expects) is refused whole: `applyPatches` throws INVALID_ACTION
 * before anything it returns could hold a part of it, and the input state is never mutated.
 */

import { DEVELOPMENT } from '../../base/env.js';
import { copyDict, isRecord, setOwn } from '../../base/dict.js';
import { describe, type DevText, setupError } from '../../base/errors.js';
import type { Patch } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';
import { recordTableDiff } from '../../base/tableDiffs.js';

type Container = Record<string | number, unknown>;

const MAP_NAMES = new Set(['entities', 'entitiesMeta', 'endpoints', 'meta']);
const TABLE_MAPS = new Set(['entities', 'entitiesMeta']);

export function applyPatches<S>(state: S, patches: readonly Patch[]): S {
  if (!Array.isArray(patches))
    refuse(process.env.NODE_ENV !== 'production' && `payload.patches is ${describe(patches)}, not an array of patches`);
  const copied = new Set<object>();
  // Containers at depth 0 and 1 (the slice and its four maps) are new on nearly every write and
  // stay unfrozen: RTK's serializability check re-walks every frozen container it has not seen
  // before, all the way down, so a frozen root would cost a walk of the whole cache per action.
  const shallow = new Set<object>();
  let root: unknown = state;
  for (const patch of patches) {
    const path = checkPatch(patch);
    if (path.length === 0) {
      root = toLiveShape(patch.value, refuse);
      copied.clear();
      shallow.clear();
      continue;
    }
    root = writable(root, copied, shallow, 0);
    let parent = root as Container;
    for (let i = 0; i < path.length - 1; i++) {
      const child = writable(parent[path[i]!], copied, shallow, i + 1, path);
      parent[path[i]!] = child;
      parent = child as Container;
    }
    applyOne(parent, path, patch);
  }
  recordDiffs(state, root, patches);
  // The store owns what it holds, in every build (as Immer freezes what it produces): a mutation
  // fails loudly instead of changing the state without an action. Row values arrive frozen from
  // the normalizer; hand-made patch values are frozen here, deeply.
  for (const container of copied) if (!shallow.has(container)) Object.freeze(container);
  for (const patch of patches) if (patch.path.length > 1) deepFreeze(patch.value);
  return root as S;
}

function refuse(what: DevText): never {
  throw setupError(
    'INVALID_ACTION',
    process.env.NODE_ENV !== 'production' && [
      `A cache action could not be applied: ${what}. The state was left as it was.`,
      'Dispatch writes through the cache (cache.set, cache.fetch, ...); an action replayed out of order (a skipped action in DevTools) can leave later ones without what they patch.',
    ],
  );
}

const OPS = new Set(['add', 'replace', 'remove']);

/** The patch's path, once the patch is known to be a well-formed write into the slice. */
export function checkPatch(patch: Patch): Patch['path'] {
  // Development names a patch that is no object; production lets `patch.op` throw on null, and a
  // primitive fails the op test: refused whole either way (docs/production.md).
  if (
    // (The cached flag first: `process.env` is slow to read in Node, and this runs per patch.)
    (DEVELOPMENT && process.env.NODE_ENV !== 'production' && (typeof patch !== 'object' || patch === null)) ||
    !OPS.has(patch.op) ||
    !Array.isArray(patch.path)
  ) {
    refuse(process.env.NODE_ENV !== 'production' && `a patch is ${describe(patch)}, not { op, path, value }`);
  }
  const { path, op } = patch;
  for (const step of path)
    if (typeof step !== 'string' && typeof step !== 'number')
      refuse(process.env.NODE_ENV !== 'production' && `a patch path holds ${describe(step)}`);
  if (path.length === 0) {
    if (op === 'remove') refuse(process.env.NODE_ENV !== 'production' && 'a patch removes the whole slice');
    return path;
  }
  const name = path[0];
  if (name === 'lastReset') {
    if (path.length !== 1 || op === 'remove' || typeof patch.value !== 'number' || !Number.isFinite(patch.value)) {
      refuse(
        process.env.NODE_ENV !== 'production' &&
          `lastReset must stay a finite number, but a patch sets it to ${describe(patch.value)}`,
      );
    }
    return path;
  }
  if (!MAP_NAMES.has(name as string))
    refuse(process.env.NODE_ENV !== 'production' && `a patch writes "${String(name)}", which is not part of the slice`);
  if (op === 'remove') {
    if (path.length === 1) refuse(process.env.NODE_ENV !== 'production' && `a patch removes the map "${String(name)}"`);
    return path;
  }
  const { value } = patch;
  const isMap = isRecord(value);
  const tables = name === 'entities' || name === 'entitiesMeta';
  if (path.length === 1) checkMap(name as string, value, refuse);
  else if (path.length === 2 && tables && !isMap)
    refuse(
      process.env.NODE_ENV !== 'production' &&
        `a table (${String(name)}.${String(path[1])}) would become ${describe(value)}`,
    );
  else if (path.length === 2 && name === 'meta' && !isMap)
    refuse(process.env.NODE_ENV !== 'production' && `meta["${String(path[1])}"] would become ${describe(value)}`);
  else if (path.length === 3 && name === 'entitiesMeta' && !isMap)
    refuse(process.env.NODE_ENV !== 'production' && `the meta of a row would become ${describe(value)}`);
  else if (path.length === 3 && name === 'entities' && (typeof value !== 'object' || value === undefined)) {
    refuse(
      process.env.NODE_ENV !== 'production' &&
        `a row (${String(path[1])} "${String(path[2])}") would become ${describe(value)}`,
    );
  }
  return path;
}

/** Tells the read memo which rows of which tables this write changed (tableDiffs.ts). */
function recordDiffs(before: unknown, after: unknown, patches: readonly Patch[]): void {
  const keysByTable = new Map<string, string[] | null>();
  for (const { path } of patches) {
    if (path.length === 0) return;
    if (path[0] !== 'entities') continue;
    const table = path[1] as string | undefined;
    if (table === undefined) return;
    // A table written whole is not a change of rows by key; a path into a row (an item pushed
    // into a list) changes that row.
    if (path.length < 3) keysByTable.set(table, null);
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

export function applyOne(parent: Container, path: Patch['path'], patch: Patch): void {
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    const limit = patch.op === 'add' ? parent.length : parent.length - 1;
    if (!Number.isInteger(index) || index < 0 || index > limit)
      refuse(
        process.env.NODE_ENV !== 'production' && `a patch reaches index ${String(key)} of a list of ${parent.length}`,
      );
    if (patch.op === 'add') parent.splice(index, 0, patch.value);
    else if (patch.op === 'replace') parent[index] = patch.value;
    else parent.splice(index, 1);
    return;
  }
  if (patch.op === 'remove') delete parent[key];
  else setOwn(parent, String(key), path.length <= 2 ? toLiveMap(patch.value, path) : patch.value);
}

/** A copy of `value` this write may change (copied at most once per write, prototype kept). */
export function writable(
  value: unknown,
  copied: Set<object>,
  shallow: Set<object>,
  depth: number,
  path?: Patch['path'],
): object {
  if (typeof value !== 'object' || value === null) {
    refuse(
      process.env.NODE_ENV !== 'production' &&
        `its path ${JSON.stringify(path?.slice(0, depth + 1))} passes through ${describe(value)}`,
    );
  }
  if (copied.has(value)) return value;
  let copy: object;
  if (Array.isArray(value)) copy = value.slice();
  // Both copies keep `__proto__` keys as own data: see copyDict, and spread defines properties.
  else if (Object.getPrototypeOf(value) === null) copy = copyDict(value as Record<string, unknown>);
  else copy = { ...value };
  copied.add(copy);
  if (depth < 2) shallow.add(copy);
  return copy;
}

/**
 * `value` in the live shape, once it is known to be a slice: the same object when its maps are
 * null-prototype already, else a copy whose maps and tables are (rows kept, and frozen).
 */
export function toLiveShape(value: unknown, refuse: (what: DevText) => never): CacheState {
  const slice = checkSliceShape(value, refuse) as unknown as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const name of MAP_NAMES) {
    const live = toLiveMap(slice[name], [name]);
    if (live !== slice[name]) (copy ??= { ...slice })[name] = live;
  }
  return (copy ?? slice) as unknown as CacheState;
}

/** A value written at a map (path length 1) or a table (path length 2) position, made live. */
function toLiveMap(value: unknown, path: Patch['path']): unknown {
  const tables = TABLE_MAPS.has(path[0] as string);
  if (path.length === 2) return tables ? toDict(value) : value;
  return tables ? toDict(value, table => Object.freeze(freezeRows(toDict(table) as object))) : toDict(value);
}

function toDict(value: unknown, mapValue: (item: unknown) => unknown = item => item): unknown {
  if (!isRecord(value) || Object.getPrototypeOf(value) === null) return value;
  const dict: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) dict[key] = mapValue((value as Record<string, unknown>)[key]);
  return dict;
}

/** Restored rows become the store's own: frozen, as every row it writes is. */
function freezeRows(table: object): object {
  for (const key of Object.keys(table)) deepFreeze((table as Record<string, unknown>)[key]);
  return table;
}

/** Freezes `value` and everything it holds, stopping at what is frozen already. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

/**
 * `value` when it has the slice's shape (four maps of objects, tables that are objects, a finite
 * `lastReset`); otherwise `refuse` is called with what is wrong.
 */
function checkSliceShape(value: unknown, refuse: (what: DevText) => never): CacheState {
  if (!isRecord(value)) refuse(process.env.NODE_ENV !== 'production' && `the slice would become ${describe(value)}`);
  const slice = value as Record<string, unknown>;
  for (const name of MAP_NAMES) checkMap(name, slice[name], refuse);
  if (typeof slice.lastReset !== 'number' || !Number.isFinite(slice.lastReset))
    refuse(process.env.NODE_ENV !== 'production' && `lastReset would become ${describe(slice.lastReset)}`);
  return value as unknown as CacheState;
}

/** `map` as the slice's map `name` (an object; for `entities` and `entitiesMeta`, of objects), or `refuse`. */
function checkMap(name: string, map: unknown, refuse: (what: DevText) => never): void {
  if (!isRecord(map)) refuse(process.env.NODE_ENV !== 'production' && `"${name}" would become ${describe(map)}`);
  if (!TABLE_MAPS.has(name)) return;
  for (const key of Object.keys(map)) {
    const table = (map as Record<string, unknown>)[key];
    if (!isRecord(table))
      refuse(process.env.NODE_ENV !== 'production' && `the table ${name}.${key} would become ${describe(table)}`);
  }
}
