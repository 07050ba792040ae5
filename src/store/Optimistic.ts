/**
 * Optimistic writes as layers over the confirmed state (docs/mutations.md, "How a rollback keeps
 * every other write"). The slice always shows the confirmed state with every pending optimistic
 * value written over it, in start order. Beside the slice, this ledger keeps what the confirmed
 * state holds under the rows the layers cover. A write that arrives while layers are pending
 * (an answer, a refetch, a `set`) is computed against the confirmed state, and the layers are
 * written again on top of the result; a layer's own answer, or its failure, is one such write
 * with the layer taken out. So a rollback can never erase a write that arrived meanwhile, and
 * an older answer is never hidden behind a guess that is later taken back.
 *
 * One ledger per store (StoreRuntime); it holds layers only while their requests are in flight
 * and is empty, and free, otherwise.
 */

import { copyDict, hasOwn, type Dict } from '../base/dict.js';
import type { WriteMeta } from '../base/patch.js';
import type { CacheState, Row } from '../base/state.js';
import { normalize, type NormalizeOptions } from '../normalize/normalize.js';
import { listPatches, PatchList } from '../normalize/PatchList.js';
import type { WritePayload } from './actions.js';
import { applyPatches } from './applyPatches.js';

type TableMap = 'entities' | 'entitiesMeta';

/** One pending optimistic value: what it writes, for which args, as started at `meta.fetchedAt`. */
export interface Layer {
  readonly endpoint: object;
  readonly schema: unknown;
  readonly args: readonly unknown[];
  readonly value: unknown;
  readonly meta: WriteMeta;
}

/** What a write computed (undefined when it wrote nothing), and the patches that take the slice there. */
export interface Rebuilt<T> {
  computed: T | undefined;
  payload: WritePayload;
}

/** Rows by map and table: `"entities\u0000Post"` → its row keys, or 'all' for a table written whole. */
type Reach = Map<string, Set<string> | 'all'>;

const SEP = '\u0000';

export class Optimistic {
  private layers: Layer[] = [];
  /** What the layers covered at the last write: the rows whose confirmed values `base` holds. */
  private covered: Reach = new Map();
  /** The confirmed value of each covered row (undefined: the row is absent), by map and table. */
  private base = new Map<string, { exists: boolean; rows: Map<string, unknown> }>();

  /** Whether writes must go through `write` (a layer is pending, or one was just taken out). */
  get active(): boolean {
    return this.layers.length > 0 || this.covered.size > 0;
  }

  /** Adds a layer; returns the patches that show it (throws, adding nothing, when it does not normalize). */
  add(visible: CacheState, layer: Layer, options: NormalizeOptions): WritePayload {
    const layers = [...this.layers, layer].sort((a, b) => a.meta.fetchedAt - b.meta.fetchedAt);
    return this.rebuild(visible, undefined, layers, options).payload;
  }

  /** Takes out the layer of the request `endpoint` started at `start`; its rows are rewritten by the next `write`. */
  settle(endpoint: object, start: number): boolean {
    const index = this.layers.findIndex(layer => layer.endpoint === endpoint && layer.meta.fetchedAt === start);
    if (index < 0) return false;
    this.layers = this.layers.filter((_, i) => i !== index);
    return true;
  }

  /**
   * A confirmed write: `compute` runs against the confirmed state, then the pending layers are
   * written over its result. Returns the payload that takes the slice from `visible` to that.
   */
  write<T extends WritePayload>(
    visible: CacheState,
    compute: (confirmed: CacheState) => T | undefined,
    options: NormalizeOptions,
  ): Rebuilt<T> {
    if (!this.active) {
      const computed = compute(visible);
      const payload = computed
        ? { patches: computed.patches, inversePatches: computed.inversePatches }
        : { patches: [], inversePatches: [] };
      return { computed, payload };
    }
    return this.rebuild(visible, compute, this.layers, options);
  }

  /** After a reset: every layer is dropped with the state it stood on. */
  clear(): void {
    this.layers = [];
    this.covered = new Map();
    this.base = new Map();
  }

  private rebuild<T extends WritePayload>(
    visible: CacheState,
    compute: ((confirmed: CacheState) => T | undefined) | undefined,
    layers: Layer[],
    options: NormalizeOptions,
  ): Rebuilt<T> {
    const confirmed = this.confirmedOf(visible);
    const computed = compute ? compute(confirmed) : undefined;
    const written = computed ? applyPatches(confirmed, computed.patches) : confirmed;
    // Every layer is written again, in start order, over the new confirmed state. A layer whose
    // value no longer normalizes there (its guess stands on rows since deleted) is dropped.
    let next = written;
    const reach: Reach = new Map();
    const kept: Layer[] = [];
    for (const layer of layers) {
      let patches;
      try {
        patches = normalize(layer.schema, layer.value, layer.args, next, layer.meta, options).patches;
      } catch (error) {
        if (compute) continue;
        throw error;
      }
      next = applyPatches(next, patches);
      addReach(reach, patches);
      kept.push(layer);
    }
    const touched: Reach = new Map(reach);
    for (const [table, keys] of this.covered) mergeReach(touched, table, keys);
    if (computed) addReach(touched, computed.patches);
    const payload = diff(visible, next, touched, computed);
    this.layers = kept;
    this.remember(written, reach);
    return { computed, payload };
  }

  /** `visible` with the confirmed value put back under every covered row. */
  private confirmedOf(visible: CacheState): CacheState {
    if (this.base.size === 0) return visible;
    const maps = { entities: copyDict(visible.entities), entitiesMeta: copyDict(visible.entitiesMeta) };
    for (const [id, { exists, rows }] of this.base) {
      const [map, table] = id.split(SEP) as [TableMap, string];
      // A table the confirmed state does not have is all the layers'.
      if (!exists) {
        delete maps[map][table];
        continue;
      }
      const copy = copyDict(maps[map][table] as Dict<unknown> | undefined);
      for (const [key, value] of rows) {
        if (value === undefined) delete copy[key];
        else copy[key] = value;
      }
      (maps[map] as Dict<unknown>)[table] = Object.freeze(copy);
    }
    return { ...visible, entities: maps.entities as CacheState['entities'], entitiesMeta: maps.entitiesMeta as never };
  }

  /** Keeps the confirmed values of the rows the layers now cover. */
  private remember(confirmed: CacheState, reach: Reach): void {
    this.covered = reach;
    this.base = new Map();
    for (const [id, keys] of reach) {
      const [map, table] = id.split(SEP) as [TableMap, string];
      const stored = confirmed[map][table] as Dict<unknown> | undefined;
      const rows = new Map<string, unknown>();
      if (keys !== 'all')
        for (const key of keys) rows.set(key, stored && hasOwn(stored, key) ? stored[key] : undefined);
      // A table a layer wrote whole did not exist in the confirmed state: all of it is the layer's.
      this.base.set(id, { exists: stored !== undefined, rows });
    }
  }
}

/** The rows (and whole tables) a patch list writes, added to `reach`. */
function addReach(reach: Reach, patches: readonly { path: readonly (string | number)[] }[]): void {
  for (const { path } of patches) {
    if ((path[0] !== 'entities' && path[0] !== 'entitiesMeta') || path.length < 2) continue;
    const id = `${path[0]}${SEP}${String(path[1])}`;
    mergeReach(reach, id, path.length === 2 ? 'all' : new Set([String(path[2])]));
  }
}

function mergeReach(reach: Reach, id: string, keys: Set<string> | 'all'): void {
  const known = reach.get(id);
  if (known === 'all') return;
  if (keys === 'all') reach.set(id, 'all');
  else if (known === undefined) reach.set(id, new Set(keys));
  else for (const key of keys) known.add(key);
}

/**
 * The patches from `before` to `after` over the rows in `touched` (a list row item by item where
 * it can be), then the computed write's own patches outside the tables (endpoint results and
 * meta), which the layers never cover.
 */
function diff(before: CacheState, after: CacheState, touched: Reach, computed: WritePayload | undefined): WritePayload {
  const list = new PatchList();
  // Rows before their meta, as the normalizer orders them.
  const ids = [...touched.keys()].sort();
  for (const id of ids) {
    const [map, table] = id.split(SEP) as [TableMap, string];
    const from = before[map][table] as Dict<unknown> | undefined;
    const to = after[map][table] as Dict<unknown> | undefined;
    if (from === to) continue;
    if (to === undefined) {
      list.remove([map, table], from);
      continue;
    }
    if (from === undefined) {
      list.set([map, table], to, undefined);
      continue;
    }
    const keys = touched.get(id)!;
    for (const key of keys === 'all' ? new Set([...Object.keys(from), ...Object.keys(to)]) : keys) {
      const a = hasOwn(from, key) ? (from[key] as Row) : undefined;
      const b = hasOwn(to, key) ? (to[key] as Row) : undefined;
      if (a === b) continue;
      if (b === undefined) list.remove([map, table, key], a);
      else if (Array.isArray(a) && Array.isArray(b)) listPatches(list, [map, table, key], a, b);
      else list.set([map, table, key], b, a);
    }
  }
  const outside = (path: readonly unknown[]) => path[0] !== 'entities' && path[0] !== 'entitiesMeta';
  return {
    patches: [...list.patches, ...(computed?.patches.filter(p => outside(p.path)) ?? [])],
    inversePatches: [...(computed?.inversePatches.filter(p => outside(p.path)) ?? []), ...list.inversePatches],
  };
}
