/**
 * The cache's write actions, the slice reducer that applies them, which slices are in the live
 * shape (liveSlice), and what the reducer carries from each slice to the one its write makes
 * (SliceFacts).
 *
 * Every write is one action: a plain, serializable action whose payload is the Immer patch list
 * the reducer applies, with the inverse patches that undo it. The reducer never throws and never
 * corrupts.
 */

import type { Reducer, UnknownAction } from '@reduxjs/toolkit';
import { warn } from '../../base/env.js';
import { type DevText, setupError, type LensCacheError } from '../../base/errors.js';
import type { Patch, WriteMeta } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';
import { applyPatches, toLiveShape } from './applyPatches.js';
import { initialState } from './initialState.js';
import type { Mount } from './middleware.js';

/** Action types, one per kind of write, so Redux DevTools shows what happened. */
export const ActionTypes = {
  set: 'cache/set',
  resolve: 'cache/resolve',
  setError: 'cache/setError',
  invalidate: 'cache/invalidate',
  expireAll: 'cache/expireAll',
  reset: 'cache/reset',
  /** A mutation's optimistic value, written as its request starts (docs/mutations.md). */
  optimistic: 'cache/optimistic',
  /** A garbage-collection sweep (docs/gc.md). */
  gc: 'cache/gc',
} as const;

export type ActionType = (typeof ActionTypes)[keyof typeof ActionTypes];

const TYPES = new Set<string>(Object.values(ActionTypes));

export interface WritePayload {
  patches: Patch[];
  inversePatches: Patch[];
}

export interface WriteAction {
  type: ActionType;
  payload: WritePayload;
  /** `reducerPath` picks the cache the action is for, so several caches can share a store. */
  meta: WriteActionMeta;
}

/** A write action's meta besides its reducerPath: the request key and the write's start stamp, when it has them. */
export type ActionMeta = { key?: string | undefined; start?: number | undefined };

export interface WriteActionMeta {
  reducerPath: string;
  /** The request key, for writes of one endpoint's response or error. */
  key?: string;
  /** The write's start stamp (StoreRuntime.stamp), for writes that record one. */
  start?: number;
}

export function writeAction(
  type: ActionType,
  reducerPath: string,
  payload: WritePayload,
  extra: ActionMeta = {},
): WriteAction {
  const meta: WriteActionMeta = { reducerPath };
  if (extra.key !== undefined) meta.key = extra.key;
  if (extra.start !== undefined) meta.start = extra.start;
  return { type, payload, meta };
}

export function isWriteAction(action: unknown, reducerPath: string): action is WriteAction {
  const candidate = action as Partial<WriteAction> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.type === 'string' &&
    TYPES.has(candidate.type) &&
    candidate.meta?.reducerPath === reducerPath
  );
}

/**
 * The slice reducer. It never throws and never corrupts: a state restored from JSON is brought to
 * the live shape once, and a write that does not fit the slice is refused whole (INVALID_ACTION,
 * warned in development). `facts` follow from slice to slice as writes land (slice/reducer.ts, SliceFacts).
 */
export function createReducer(reducerPath: string, facts: SliceFacts, mount: Mount): Reducer<CacheState> {
  const refuseState = (what: DevText): never => {
    throw setupError(
      'INVALID_ACTION',
      process.env.NODE_ENV !== 'production' && [
        `The state given to the cache reducer at ${reducerPath} is not a cache slice: ${what}. It is left as it is, and reads will fail.`,
        'Restore only state this cache made (a JSON copy of it is fine), or leave the slice out of preloadedState.',
      ],
    );
  };
  // The slice it returned last: another slice's action costs one comparison (most actions are).
  let last: CacheState | undefined;
  return (state = initialState(), action) => {
    if (state === last && !isWriteAction(action, reducerPath)) return state;
    last = reduce(state, action);
    return last;
  };

  function reduce(state: CacheState, action: UnknownAction): CacheState {
    let current: CacheState;
    try {
      current = liveSlice(state, refuseState);
    } catch (error) {
      if (process.env.NODE_ENV !== 'production') warn(`${(error as LensCacheError).code}: ${(error as Error).message}`);
      return state;
    }
    if (!isWriteAction(action, reducerPath)) return mount.made(current);
    try {
      const patches = (action.payload as Partial<WriteAction['payload']> | undefined)?.patches as Patch[];
      const next = applyPatches(current, patches);
      liveForms.set(next, next);
      facts.carry(current, next, action.meta.start, patches);
      return mount.made(next);
    } catch (error) {
      if (process.env.NODE_ENV !== 'production')
        warn(`${(error as LensCacheError).code}: ${(error as Error).message}\n(action ${action.type})`);
      return mount.made(current);
    }
  }
}

/**
 * Slices in the live shape (docs/architecture.md, "Restored state"), each mapped to itself, and
 * restored slices to their live copy: a slice a reducer made is known at once (the reducer notes
 * each slice it writes), and a restored one is converted once however often it is read.
 */
const liveForms = new WeakMap<object, CacheState>();

/** `state` in the live shape (a restored slice is converted once); a value that is no slice goes to `refuse`. */
export function liveSlice(state: CacheState, refuse: (what: DevText) => never): CacheState {
  let live = liveForms.get(state);
  if (live !== undefined) return live;
  live = toLiveShape(state, refuse);
  liveForms.set(state, live).set(live, live);
  return live;
}

/**
 * SliceFacts: what one cache knows of each slice beyond its data (docs/architecture.md, "Who owns
 * what"): its highest start stamp, its lineage, its memo owner and how many rows are unsure. The
 * reducer carries them from slice to slice in time proportional to the write; a slice it did not
 * make is scanned once. Held weakly by slice.
 */
interface Facts {
  readonly high: number;
  readonly line: object;
  /** Counted when a read first asks (a store nothing reads pays nothing), then carried. */
  unsure?: number | undefined;
  owner?: object | undefined;
}

export class SliceFacts {
  private readonly known = new WeakMap<CacheState, Facts>();

  private of(slice: CacheState): Facts {
    let facts = this.known.get(slice);
    if (facts === undefined) this.known.set(slice, (facts = { high: highWaterOf(slice), line: {} }));
    return facts;
  }

  /** The highest start stamp in `slice`. */
  highWater(slice: CacheState): number {
    return this.of(slice).high;
  }

  /** The lineage token of `slice`. */
  lineage(slice: CacheState): object {
    return this.of(slice).line;
  }

  /** The memo owner of `slice`, if a store noted it. */
  owner(slice: CacheState): object | undefined {
    return this.known.get(slice)?.owner;
  }

  /** `slice` is held by the store whose read memo is `owner`. */
  note(slice: CacheState, owner: object): void {
    this.of(slice).owner = owner;
  }

  /** How many unsure rows `slice` holds. */
  unsure(slice: CacheState): number {
    const facts = this.of(slice);
    return (facts.unsure ??= unsureIn(slice));
  }

  /** `to` is `from` after the cache's write of `patches`, stamped `start` (a write that adds no stamp has none). */
  carry(from: CacheState, to: CacheState, start: number | undefined, patches: readonly Patch[]): void {
    if (from === to) return;
    const { high, line, unsure, owner } = this.of(from);
    this.known.set(to, {
      high: typeof start === 'number' && start > high ? start : high,
      line,
      unsure: unsure === undefined ? undefined : unsureAfter(unsure, from, to, patches),
      owner,
    });
  }
}

/** The unsure rows of `to`, `from` after `patches`: row-meta patches move the count; a whole table is counted again. */
function unsureAfter(count: number, from: CacheState, to: CacheState, patches: readonly Patch[]): number {
  // None before, and none written (nearly every write): nothing to look up row by row.
  if (count === 0 && !patches.some(writesUnsure)) return 0;
  let tables: Set<string> | undefined;
  let rows: Map<string, { table: string; key: string; before: WriteMeta | undefined }> | undefined;
  for (const { path } of patches) {
    // The slice or its meta map replaced (a reset, a hydration): counted anew.
    if (path.length === 0 || (path[0] === 'entitiesMeta' && path.length === 1)) return unsureIn(to);
    if (path[0] !== 'entitiesMeta') continue;
    const table = path[1] as string;
    // A whole meta table (a first load): as costly to write as to count.
    if (path.length === 2) (tables ??= new Set()).add(table);
    else {
      const key = path[2] as string;
      const id = `${table}\u0000${key}`;
      rows ??= new Map();
      if (!rows.has(id)) rows.set(id, { table, key, before: from.entitiesMeta[table]?.[key] });
    }
  }
  for (const table of tables ?? []) count += inTable(to.entitiesMeta[table]) - inTable(from.entitiesMeta[table]);
  for (const { table, key, before } of rows?.values() ?? [])
    if (!tables?.has(table)) count += flag(to.entitiesMeta[table]?.[key]) - flag(before);
  return count;
}

/** Whether `patch` may leave an unsure row: it writes one, or a whole table holding one, or more than a row's meta. */
function writesUnsure({ path, value }: Patch): boolean {
  if (path[0] !== 'entitiesMeta') return path.length === 0;
  if (path.length === 3) return flag(value as WriteMeta | undefined) === 1;
  if (path.length !== 2) return true;
  const metas = value as Record<string, WriteMeta> | undefined;
  let last: unknown;
  // The rows of one write share one meta object: each is looked at once.
  for (const key in metas) if (metas[key] !== last && flag((last = metas[key])) === 1) return true;
  return false;
}

function flag(meta: WriteMeta | undefined): number {
  return meta?.ambiguous === true ? 1 : 0;
}

function inTable(metas: Record<string, WriteMeta> | undefined): number {
  let count = 0;
  if (metas) for (const key of Object.keys(metas)) count += flag(metas[key]);
  return count;
}

/** The highest stamp of a slice the cache did not make (read once). */
function highWaterOf(slice: CacheState): number {
  let high = stampOf(slice.lastReset);
  for (const key of Object.keys(slice.meta)) high = Math.max(high, stampOf(slice.meta[key]?.fetchedAt));
  for (const table of Object.keys(slice.entitiesMeta)) {
    const metas = slice.entitiesMeta[table]!;
    let last: unknown;
    for (const key of Object.keys(metas)) {
      // The rows of one write share one meta object: its stamp is read once.
      if (metas[key] === last) continue;
      last = metas[key];
      high = Math.max(high, stampOf(metas[key]?.fetchedAt));
    }
  }
  return high;
}

/** How many unsure rows a slice holds, counted. */
function unsureIn(slice: CacheState): number {
  let count = 0;
  for (const table of Object.keys(slice.entitiesMeta)) count += inTable(slice.entitiesMeta[table]);
  return count;
}

/** A stamp the clock can count up from; any other (restored state with `1e300`) is not followed. */
function stampOf(value: unknown): number {
  return typeof value === 'number' && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? value : 0;
}
