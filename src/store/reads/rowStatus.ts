/**
 * selectRowStatus: whether a record is being saved, and the error its last save failed with
 * (docs/rowStatus.md). A module of its own: an app that never asks bundles none of it, not even
 * the recording, which this module hooks into the optimistic ledgers as it loads.
 */

import { describe, setupError } from '../../base/errors.js';
import type { Patch } from '../../base/patch.js';
import { internalsOf, type Cache } from '../Cache.js';
import type { CacheState } from '../../base/state.js';
import { settlements } from '../features/optimistic/Optimistic.js';
import type { StoreRuntime } from '../runtime/StoreRuntime.js';

/** A row's status (docs/rowStatus.md): a guess that writes it is pending; the error of its last mutation, if that failed. */
export interface RowStatus {
  readonly saving: boolean;
  readonly error: unknown;
}

/** A settled mutation: the rows its guess and its write touched (`table\u0000rowKey`), and its error (undefined: it succeeded). */
type Outcome = readonly [rows: readonly string[], error: unknown];

/** A store's outcomes: its last 100 settled mutations, newest last, since its last reset. */
interface Kept {
  /** The store's reset count when the list was started: a reset since starts it anew. */
  readonly resets: number;
  readonly outcomes: Outcome[];
  /** The newest of `outcomes` that touched each row: an entry goes with the outcome it names. */
  readonly rows: Map<string, Outcome>;
}
/** Each store's outcomes, by its runtime (held weakly: they go with the store). */
const kept = new WeakMap<StoreRuntime, Kept>();
/** The stores of each cache that keep outcomes, by the cache's slice reader (`parts.slice`), held weakly. */
const storesOf = new WeakMap<object, Set<WeakRef<StoreRuntime>>>();

/** The outcomes of the store `runtime` runs, since its last reset (none kept yet: undefined, unless `make`). */
function outcomesOf(runtime: StoreRuntime, make?: boolean): Kept | undefined {
  const resets = runtime.requests.generation;
  let list = kept.get(runtime);
  if (list?.resets !== resets) {
    if (!make) return undefined;
    if (!list) {
      let stores = storesOf.get(runtime.parts.slice);
      if (!stores) storesOf.set(runtime.parts.slice, (stores = new Set()));
      stores.add(new WeakRef(runtime));
    }
    kept.set(runtime, (list = { resets, outcomes: [], rows: new Map() }));
  }
  return list;
}

/**
 * The store, among those of the cache reading with `reader` that keep outcomes, that holds
 * `slice`: the one whose slice it is now, else the one whose slices it descends from (its lineage).
 */
function storeOf(reader: object, slice: CacheState): StoreRuntime | undefined {
  const refs = storesOf.get(reader) ?? new Set();
  // A store gone (a server's store per request) leaves its reference: dropped here.
  for (const ref of refs) if (!ref.deref()) refs.delete(ref);
  const stores = [...refs].map(ref => ref.deref()!);
  return (
    stores.find(runtime => runtime.state() === slice) ??
    stores.find(runtime => runtime.parts.lineage(slice) === runtime.parts.lineage(runtime.state()))
  );
}

// From the moment this module loads (with the app, its imports being static), every ledger tells it
// of each request that settles: a mutation's outcome, once written, joins its store's list.
settlements.listener = (ledger, endpoint, start) => {
  if (!(endpoint as { sideEffect?: unknown }).sideEffect) return undefined;
  // A failure has no answer: its guess, if it had one, names its rows.
  const layer = ledger.layers.find(pending => pending.endpoint === endpoint && pending.start === start);
  const guess = (layer && ledger.computed.get(layer)?.patches) ?? [];
  return compute => confirmed => {
    const written = compute(confirmed);
    // (An abort computes nothing: no outcome.)
    const list = written && outcomesOf(ledger.runtime, true);
    if (list) {
      const outcome: Outcome = [rowsOf([...guess, ...written.patches]), (written as { error?: unknown }).error];
      for (const row of outcome[0]) list.rows.set(row, outcome);
      if (list.outcomes.push(outcome) > 100) {
        // The oldest is forgotten, and with it the rows no later outcome touched.
        const dropped = list.outcomes.shift()!;
        for (const row of dropped[0]) if (list.rows.get(row) === dropped) list.rows.delete(row);
      }
    }
    return written;
  };
};

/** Every row with nothing pending and no failure reads this one object. */
const IDLE: RowStatus = Object.freeze({ saving: false, error: undefined });
const SAVING: RowStatus = Object.freeze({ saving: true, error: undefined });
/** Each failed outcome's status, and its twin while a new guess for the row is pending. */
const statuses = new WeakMap<Outcome, [RowStatus, RowStatus]>();

/**
 * The status of the row `pk` of `Entity` in the store holding `rootState`: `saving` while a
 * mutation's optimistic guess that writes it is pending, and `error`, the error (as thrown) of the
 * last mutation that touched it, when that one failed. The same object while the status is
 * unchanged; one shared object for every idle row.
 *
 * @example
 * ```ts
 * const { saving, error } = selectRowStatus(cache, store.getState(), Post, '1');
 * ```
 */
export function selectRowStatus(
  cache: Cache<string>,
  rootState: unknown,
  Entity: { readonly key: string },
  pk: string | number,
): RowStatus {
  const reads = internalsOf(cache);
  const table = (Entity as { key?: unknown } | null)?.key;
  if (typeof table !== 'string' || (typeof pk !== 'string' && typeof pk !== 'number')) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `selectRowStatus was given ${describe(Entity)} and the pk ${describe(pk)}: expected an Entity class and a string or number pk.`,
        "Pass the row's Entity class and its pk, e.g. selectRowStatus(cache, state, Post, '1').",
      ],
    );
  }
  const state = reads.slice(rootState);
  const key = String(pk);
  const saving = state.entitiesMeta[table]?.[key]?.optimistic === true;
  const row = state.entities[table]?.[key];
  const store = storeOf(reads.slice, state);
  const list = store && outcomesOf(store);
  // A row no longer stored (swept, or deleted for good) has no failure to show.
  const last = list && (row != null || saving) ? list.rows.get(`${table}\u0000${key}`) : undefined;
  if (last?.[1] === undefined) return saving ? SAVING : IDLE;
  let pair = statuses.get(last);
  if (!pair) {
    const error = last[1];
    statuses.set(last, (pair = [Object.freeze({ saving: false, error }), Object.freeze({ saving: true, error })]));
  }
  return pair[saving ? 1 : 0];
}

/** The rows `patches` write, as `table\u0000rowKey`, once each (a row and its meta are one; a patch of a whole table writes each of its rows). */
function rowsOf(patches: readonly Patch[]): string[] {
  const rows = new Set<string>();
  for (const { path, value } of patches) {
    if (path[0] !== 'entities' && path[0] !== 'entitiesMeta') continue;
    if (path.length > 2) rows.add(`${path[1]}\u0000${path[2]}`);
    else if (path.length === 2 && value !== null && typeof value === 'object')
      for (const key of Object.keys(value)) rows.add(`${path[1]}\u0000${key}`);
  }
  return [...rows];
}

/** How many rows the outcomes kept for the store `runtime` name (what tests check stays bounded). */
export function keptRows(runtime: StoreRuntime): number {
  return outcomesOf(runtime)?.rows.size ?? 0;
}
