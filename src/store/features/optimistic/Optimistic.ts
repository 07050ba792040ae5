/**
 * The optimistic ledger of one store (docs/mutations.md, "How guesses are rebased"): the pending
 * guesses of mutations in flight, as layers over the confirmed state.
 *
 * The store's slice shows what users see: the confirmed state with every pending guess applied on
 * top, in start order, each guess computed by its `getOptimisticResponse` against the state below
 * it. Beside the slice the ledger keeps the confirmed value of every row the guesses cover. Every
 * confirmed write (an answer, a `set`, an invalidation, a sweep) goes through `write`: it is
 * computed against the confirmed state, then every pending guess is computed again over the result
 * and written on top. So two increments answered in either order show both, an updater never bakes
 * a guess into confirmed data, and a guess taken out (its answer, its failure) leaves no trace.
 *
 * Both states are Overlays of the slice (Overlay.ts): a write costs what it costs without guesses,
 * plus the rows the guesses touch. The ledger holds layers only while their requests are in flight
 * and is empty, and free, otherwise.
 */

import { createDict, type Dict } from '../../../base/dict.js';
import type { Patch, WriteMeta } from '../../../base/patch.js';
import type { CacheState } from '../../../base/state.js';
import { normalize, type NormalizeOptions } from '../../../normalize/normalize.js';
import type { ConfirmedWriter, Rebuilt } from '../../runtime/Feature.js';
import type { StoreRuntime } from '../../runtime/StoreRuntime.js';
import type { WritePayload } from '../../slice/reducer.js';
import { Overlay, tableId, type Changes, type TableMap } from './Overlay.js';

/** One pending guess: the request it stands for, and how to compute it against the state below it. */
export interface Layer {
  readonly endpoint: object;
  readonly schema: unknown;
  readonly args: readonly unknown[];
  /** The request's start stamp: layers apply in this order, and `settle` finds them by it. */
  readonly start: number;
  /** The meta the guess's rows are shown with (`optimistic: true`). */
  readonly meta: WriteMeta;
  /**
   * The guessed response, computed against `below` (the confirmed state with the earlier
   * guesses); undefined for none. Calls `reading` before it reads the state (`snap.get`).
   */
  guess(below: CacheState, visible: CacheState, reading: () => void): unknown;
}

/** @internal A layer's last computation: its patches, the tables they write, and whether it read the state. */
export interface Computed {
  readonly patches: readonly Patch[];
  readonly tables: ReadonlySet<string>;
  readonly readsState: boolean;
}

/** Marks every table as changed (a layer whose writes are unknown was taken out). */
const EVERY_TABLE = '*';

export class Optimistic implements ConfirmedWriter {
  /** @internal The pending guesses, by start (tests count them). */
  layers: Layer[] = [];
  /** @internal The confirmed value of every row the slice shows differently (a guess covers it), by map and table. */
  base: Changes = new Map();
  /** @internal Each pending layer's last computation (row statuses read a settling one's patches), reused while nothing it depends on changed. */
  computed = new Map<Layer, Computed>();
  /** Tables written since the last rebuild by layers taken out: the layers after them are computed again. */
  private dirty = new Set<string>();
  /** The lineage of the slice `base` was kept against (slice/reducer.ts, SliceFacts). */
  declare private line: object | undefined;
  /** What the next `write` (a settled request's outcome) passes its computation through, as `settlements` asked. */
  declare private next: Wrap | undefined;

  /** The store's runtime: `parts.lineage` names the slices the cache's own writes made from one another. */
  constructor(readonly runtime: StoreRuntime) {}

  /** Whether writes must go through `write` (a guess is pending, or one was just taken out). */
  get active(): boolean {
    return this.layers.length > 0 || this.base.size > 0;
  }

  /**
   * Adds a layer and returns the patches that show it. Throws what its guess throws, or fails to
   * normalize with; nothing is then recorded.
   */
  add(visible: CacheState, layer: Layer, options: NormalizeOptions): WritePayload {
    const layers = [...this.layers, layer].sort((a, b) => a.start - b.start);
    return this.rebuild(visible, undefined, layers, options, layer).payload;
  }

  /** Takes out the layer of the request `endpoint` started at `start`; its rows are written back by the next `write`. */
  settle(endpoint: object, start: number): boolean {
    this.next = settlements.listener?.(this, endpoint, start);
    const index = this.layers.findIndex(layer => layer.endpoint === endpoint && layer.start === start);
    if (index < 0) return false;
    const layer = this.layers[index]!;
    for (const table of this.computed.get(layer)?.tables ?? [EVERY_TABLE]) this.dirty.add(table);
    this.computed.delete(layer);
    this.layers = this.layers.filter((_, i) => i !== index);
    return true;
  }

  /**
   * A confirmed write: `compute` runs against the confirmed state, then the pending guesses are
   * computed again over its result and written on top. Returns the payload that takes the slice
   * from `visible` there. When `compute` throws, nothing is recorded.
   */
  write<T extends WritePayload>(
    visible: CacheState,
    compute: (confirmed: CacheState) => T | undefined,
    options: NormalizeOptions,
  ): Rebuilt<T> {
    // The write of a settled request's outcome goes through what the listener returned, once.
    const next = this.next;
    this.next = undefined;
    if (next) compute = next(compute);
    if (!this.active) {
      // As without a writer: what was computed is the payload (the runtime reads its patches alone).
      const computed = compute(visible);
      return { computed, payload: computed ?? { patches: [], inversePatches: [] } };
    }
    return this.rebuild(visible, compute, this.layers, options, undefined);
  }

  /** After a reset: every layer is dropped with the state it stood on. */
  clear(): void {
    this.layers = [];
    this.forget();
  }

  /** Forgets what was kept against the slice: the confirmed rows and the layers' last computations. */
  private forget(): void {
    this.base = new Map();
    this.computed = new Map();
    this.dirty = new Set();
  }

  private rebuild<T extends WritePayload>(
    visible: CacheState,
    compute: ((confirmed: CacheState) => T | undefined) | undefined,
    layers: Layer[],
    options: NormalizeOptions,
    fresh: Layer | undefined,
  ): Rebuilt<T> {
    const line = this.runtime.parts.lineage(visible);
    if (line !== this.line) {
      // Replaced from outside: the new slice is what is confirmed, and every guess is computed
      // again over it (none has a computation left); no row kept from before comes back.
      this.line = line;
      this.forget();
    }
    const overlay = new Overlay(visible);
    overlay.load(this.base);
    const computed = compute ? compute(overlay.view()) : undefined;
    if (computed) overlay.apply(computed.patches, computed.inversePatches);
    // Every guess is computed again, in start order, over the new confirmed state. One that
    // throws there (it stands on rows since deleted) is not shown this time, and stays pending.
    // A guess that read nothing of the state (its value comes from its args) and whose tables
    // nothing below it changed gives the same patches as last time: they are reused, so an
    // unrelated write costs nothing per pending guess.
    const dirty = new Set(this.dirty);
    if (computed) addTables(dirty, computed.patches);
    const base: Changes = new Map();
    const guessOptions = { ...options, changedRowsOnly: false, overwrite: true };
    for (const layer of layers) {
      const last = this.computed.get(layer);
      let patches = last && !last.readsState && !touches(last.tables, dirty) ? last.patches : undefined;
      if (patches === undefined) {
        let readsState = false;
        const below = overlay.view();
        try {
          const value = layer.guess(below, visible, () => (readsState = true));
          patches =
            value === undefined
              ? []
              : normalize(layer.schema, value, layer.args, below, layer.meta, guessOptions).patches;
        } catch (error) {
          if (layer === fresh) throw error;
          // Computed again next time: what it stands on may be back by then.
          readsState = true;
          patches = [];
        }
        const tables = addTables(new Set(), patches);
        for (const table of tables) dirty.add(table);
        this.computed.set(layer, { patches, tables, readsState });
      }
      remember(base, overlay, patches);
      overlay.apply(patches);
    }
    const payload = overlay.diff();
    this.layers = layers;
    this.base = base;
    this.dirty = new Set();
    return { computed, payload };
  }
}

/** Passes a write's computation through, and returns what it computed. */
export type Wrap = <T extends WritePayload>(compute: (confirmed: CacheState) => T | undefined) => typeof compute;

/**
 * Told by every ledger of each request that settles (its endpoint and start), before its layer
 * goes and its outcome is written; what it returns wraps that write's computation. Empty unless a
 * module that needs it is loaded: row statuses (reads/rowStatus.ts) fill it as they load, so an
 * app that never imports them bundles no recording.
 */
export const settlements: { listener?: (ledger: Optimistic, endpoint: object, start: number) => Wrap | undefined } = {};

/** Adds the tables `patches` write (by map and table) to `tables`; returns it. */
function addTables(tables: Set<string>, patches: readonly Patch[]): Set<string> {
  for (const { path } of patches) {
    if (path[0] === 'entities' || path[0] === 'entitiesMeta') {
      // (Row and meta tables change together: one name for both.)
      if (path.length > 1) tables.add(String(path[1]));
    }
  }
  return tables;
}

function touches(tables: ReadonlySet<string>, dirty: ReadonlySet<string>): boolean {
  if (dirty.has(EVERY_TABLE)) return true;
  for (const table of tables) if (dirty.has(table)) return true;
  return false;
}

/**
 * Keeps the confirmed value of each row (or whole table) `patches` write, the first time a guess
 * writes it: the guesses before have not written it, so the overlay still shows its confirmed value.
 */
function remember(base: Changes, overlay: Overlay, patches: readonly Patch[]): void {
  for (const { path } of patches) {
    const [map, table] = path as [string, string | number | undefined];
    if ((map !== 'entities' && map !== 'entitiesMeta') || table === undefined) continue;
    const name = String(table);
    const id = tableId(map, name);
    let kept = base.get(id);
    if (kept?.whole !== undefined) continue;
    if (path.length === 2) {
      base.set(id, { whole: confirmedTable(overlay, map, name, kept), rows: new Map() });
      continue;
    }
    if (!kept) base.set(id, (kept = { rows: new Map() }));
    const key = String(path[2]);
    if (!kept.rows.has(key)) kept.rows.set(key, overlay.get(map, name, key));
  }
}

/** The confirmed table as a whole (a guess writes it whole): the overlay's, with the rows earlier guesses wrote put back. */
function confirmedTable(
  overlay: Overlay,
  map: TableMap,
  table: string,
  kept: { rows: Map<string, unknown> } | undefined,
): Dict<unknown> | null {
  const copy = createDict<unknown>();
  for (const key of overlay.keys(map, table)) copy[key] = overlay.get(map, table, key);
  for (const [key, value] of kept?.rows ?? []) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  }
  return overlay.hasTable(map, table) ? Object.freeze(copy) : null;
}

/**
 * The confirmed state under `visible` as `ledger` keeps it, as a slice (its tables that differ
 * are read-only views). A function, not a method: only tests ask, so a bundle leaves it out.
 */
export function confirmedUnder(ledger: Optimistic, visible: CacheState): CacheState {
  if (ledger.base.size === 0) return visible;
  const overlay = new Overlay(visible);
  overlay.load(ledger.base);
  return overlay.view();
}
