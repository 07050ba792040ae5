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

/** A settled mutation: the patches of its guess and of its write, and its error (undefined: it succeeded). */
type Outcome = readonly [guess: readonly Patch[], written: readonly Patch[], error: unknown];

/** A store's outcomes: its last 100 settled mutations, newest last, since its last reset. */
interface Kept {
  /** The store's reset count when the list was started: a reset since starts it anew. */
  readonly resets: number;
  readonly outcomes: Outcome[];
}
/** Each store's outcomes, by its runtime (held weakly: they go with the store). */
const kept = new WeakMap<StoreRuntime, Kept>();
/** The stores of each cache that keep outcomes, by the cache's slice reader (`parts.slice`), held weakly. */
const storesOf = new WeakMap<object, Set<WeakRef<StoreRuntime>>>();

/** The outcomes of the store `runtime` runs, since its last reset (none kept yet: undefined, unless `make`). */
function outcomesOf(runtime: StoreRuntime, make?: boolean): Outcome[] | undefined {
  const resets = runtime.requests.generation;
  let list = kept.get(runtime);
  if (list?.resets !== resets) {
    if (!make) return undefined;
    if (!list) {
      let stores = storesOf.get(runtime.parts.slice);
      if (!stores) storesOf.set(runtime.parts.slice, (stores = new Set()));
      stores.add(new WeakRef(runtime));
    }
    kept.set(runtime, (list = { resets, outcomes: [] }));
  }
  return list.outcomes;
}

/**
 * The store, among those of the cache reading with `reader` that keep outcomes, that holds
 * `slice`: the one whose slice it is now, else the one whose slices it descends from (its lineage).
 */
function storeOf(reader: object, slice: CacheState): StoreRuntime | undefined {
  const stores = [...(storesOf.get(reader) ?? [])].flatMap(ref => ref.deref() ?? []);
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
    const outcomes = written && outcomesOf(ledger.runtime, true);
    if (outcomes && outcomes.push([guess, written.patches, (written as { error?: unknown }).error]) > 100)
      outcomes.shift();
    return written;
  };
};

/** Every row with nothing pending and no failure reads this one object. */
const IDLE: RowStatus = Object.freeze({ saving: false, error: undefined });
const SAVING: RowStatus = Object.freeze({ saving: true, error: undefined });
/** Each failed outcome's status, and its twin while a new guess for the row is pending. */
const statuses = new WeakMap<Outcome, [RowStatus, RowStatus]>();

/** The newest outcome touching each row, by `table\u0000rowKey`, as of the outcome `last`. */
interface RowIndex {
  last: Outcome | undefined;
  rows: Map<string, Outcome>;
}
/** Each ledger's outcome list, indexed (held weakly by the list: a reset starts a new one). */
const indexes = new WeakMap<readonly Outcome[], RowIndex>();

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
  const outcomes = store && outcomesOf(store);
  // A row no longer stored (swept, or deleted for good) has no failure to show.
  const last = outcomes && (row != null || saving) ? lastOutcome(outcomes, `${table}\u0000${key}`) : undefined;
  if (last?.[2] === undefined) return saving ? SAVING : IDLE;
  let pair = statuses.get(last);
  if (!pair) {
    const error = last[2];
    statuses.set(last, (pair = [Object.freeze({ saving: false, error }), Object.freeze({ saving: true, error })]));
  }
  return pair[saving ? 1 : 0];
}

/** The newest of `outcomes` that touched `row`; the index catches up with the outcomes added since it was last read. */
function lastOutcome(outcomes: readonly Outcome[], row: string): Outcome | undefined {
  let index = indexes.get(outcomes);
  if (!index) indexes.set(outcomes, (index = { last: undefined, rows: new Map() }));
  const newest = outcomes[outcomes.length - 1];
  if (index.last !== newest) {
    const from = index.last === undefined ? -1 : outcomes.indexOf(index.last);
    // More than the list holds settled since: what the index knew is gone.
    if (from < 0 && index.last !== undefined) index.rows.clear();
    for (let i = from + 1; i < outcomes.length; i++) {
      const outcome = outcomes[i]!;
      for (const patches of [outcome[0], outcome[1]])
        for (const touched of rowsOf(patches)) index.rows.set(touched, outcome);
    }
    index.last = newest;
  }
  const found = index.rows.get(row);
  // An outcome the list no longer holds (more than 100 mutations settled since) is forgotten.
  return found && outcomes.includes(found) ? found : undefined;
}

/** The rows `patches` write, as `table\u0000rowKey` (a row and its meta are one). */
function rowsOf(patches: readonly Patch[]): string[] {
  const rows: string[] = [];
  for (const { path } of patches)
    if ((path[0] === 'entities' || path[0] === 'entitiesMeta') && path.length > 2)
      rows.push(`${path[1]}\u0000${path[2]}`);
  return rows;
}
