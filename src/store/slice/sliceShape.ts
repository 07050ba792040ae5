/**
 * The slice as the cache keeps it: its four maps and every table are null-prototype objects, so a
 * pk or request key such as `constructor`, `toString` or `__proto__` is an ordinary own key and is
 * never found on Object.prototype.
 *
 * A state restored from JSON (server rendering's preloadedState, a persisted store, a DevTools
 * import) has ordinary objects there instead. The reducer and every read pass the slice through
 * `toLiveSlice`, which rebuilds such maps and tables once (rows are kept, and frozen), so restored
 * state reads and writes exactly like the state the cache made. See docs/architecture.md.
 */

import { describe, ErrorCode, setupError, type DevText } from '../../base/errors.js';
import type { CacheState } from '../../base/state.js';

export const MAP_NAMES = new Set(['entities', 'entitiesMeta', 'endpoints', 'meta']);
const TABLE_MAPS = new Set(['entities', 'entitiesMeta']);

/** Slices known to be in the live shape: made by the reducer, or converted already. */
const live = new WeakSet<object>();
/** Restored slices and their live conversion (the same restored slice is read many times). */
const converted = new WeakMap<object, CacheState>();

/**
 * `state` in the live shape: the same object when it is, a converted copy when it was restored.
 * A value that is not a slice at all goes to `refuse` (checkSliceShape).
 */
export function toLiveSlice(state: CacheState, refuse: (what: DevText) => never): CacheState {
  if (live.has(state)) return state;
  const known = converted.get(state);
  if (known) return known;
  checkSliceShape(state, refuse);
  let result = state;
  if (!isLive(state)) {
    result = { ...state } as CacheState;
    for (const name of MAP_NAMES) {
      const value = (state as unknown as Record<string, unknown>)[name];
      (result as unknown as Record<string, unknown>)[name] = toLiveMap(value, [name]);
    }
    converted.set(state, result);
  }
  live.add(result);
  return result;
}

/** Marks a slice the reducer made (its maps and tables are null-prototype by construction). */
export function markLive(state: CacheState): CacheState {
  live.add(state);
  return state;
}

/** A value written at a map (path length 1) or a table (path length 2) position, made live. */
export function toLiveMap(value: unknown, path: readonly (string | number)[]): unknown {
  if (path.length === 1 && MAP_NAMES.has(path[0] as string)) {
    return TABLE_MAPS.has(path[0] as string)
      ? toDict(value, table => Object.freeze(freezeRows(toDict(table) as object)))
      : toDict(value);
  }
  if (path.length === 2 && TABLE_MAPS.has(path[0] as string)) return toDict(value);
  return value;
}

function isLive(state: CacheState): boolean {
  for (const name of MAP_NAMES) {
    const map = (state as unknown as Record<string, object>)[name]!;
    if (Object.getPrototypeOf(map) !== null) return false;
    if (!TABLE_MAPS.has(name)) continue;
    for (const key of Object.keys(map)) {
      if (Object.getPrototypeOf((map as Record<string, object>)[key]) !== null) return false;
    }
  }
  return true;
}

function toDict(value: unknown, mapValue: (item: unknown) => unknown = item => item): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) === null)
    return value;
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
export function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

/**
 * `value` when it has the slice's shape (four maps of objects, tables that are objects, a finite
 * `lastReset`); otherwise `refuse` is called with what is wrong.
 */
export function checkSliceShape(value: unknown, refuse: (what: DevText) => never): CacheState {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    refuse(process.env.NODE_ENV !== 'production' && `the slice would become ${describe(value)}`);
  const slice = value as Record<string, unknown>;
  for (const name of MAP_NAMES) {
    const map = slice[name];
    if (typeof map !== 'object' || map === null || Array.isArray(map))
      refuse(process.env.NODE_ENV !== 'production' && `"${name}" would become ${describe(map)}`);
    if (!TABLE_MAPS.has(name)) continue;
    for (const key of Object.keys(map)) {
      const table = (map as Record<string, unknown>)[key];
      if (typeof table !== 'object' || table === null || Array.isArray(table))
        refuse(process.env.NODE_ENV !== 'production' && `the table ${name}.${key} would become ${describe(table)}`);
    }
  }
  if (typeof slice.lastReset !== 'number' || !Number.isFinite(slice.lastReset))
    refuse(process.env.NODE_ENV !== 'production' && `lastReset would become ${describe(slice.lastReset)}`);
  return value as CacheState;
}

/** The slice handed to the exported `normalize` or `denormalize`, live; anything else is CACHE_NOT_MOUNTED. */
export function givenSlice(state: CacheState, caller: string): CacheState {
  return toLiveSlice(state, what => {
    throw setupError(
      ErrorCode.CACHE_NOT_MOUNTED,
      process.env.NODE_ENV !== 'production' && [
        `${caller}() expected a cache slice as its state, but received ${describe(state)}: ${what}.`,
        'Pass the slice itself, e.g. store.getState().cache (or a JSON copy of it).',
      ],
    );
  });
}
