/**
 * What one cache knows of each slice beyond its data (docs/architecture.md, "Who owns what"):
 *
 * - its **high water**, the highest start stamp it holds: a store's clock never stamps below it,
 *   so state handed over by a server whose clock runs ahead never outranks a later request
 *   ("Ordering");
 * - its **lineage**, a token shared by the slices the cache's own writes made from one another: a
 *   slice that came from anywhere else (HYDRATE, REHYDRATE, a DevTools import) starts a new one,
 *   and the optimistic ledger rebases on it (docs/mutations.md, "State replaced from outside");
 * - how many of its rows are **unsure** (`ambiguous` in their meta: two overlapping mutation
 *   answers disagreed on them): reads look for them only while there are some.
 *
 * The reducer carries the facts from each slice to the one its write makes, in time proportional
 * to the write; a slice it did not make is scanned once. Held weakly by slice.
 */

import type { Patch, WriteMeta } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';

interface Facts {
  readonly high: number;
  readonly line: object;
  readonly unsure: number;
}

export class SliceFacts {
  private readonly known = new WeakMap<CacheState, Facts>();

  private of(slice: CacheState): Facts {
    let facts = this.known.get(slice);
    if (facts === undefined) this.known.set(slice, (facts = { ...scan(slice), line: {} }));
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

  /** How many unsure rows `slice` holds. */
  unsure(slice: CacheState): number {
    return this.of(slice).unsure;
  }

  /** `to` is `from` after the cache's write of `patches`, stamped `start` (a write that adds no stamp has none). */
  carry(from: CacheState, to: CacheState, start: number | undefined, patches: readonly Patch[]): void {
    if (from === to) return;
    const { high, line, unsure } = this.of(from);
    this.known.set(to, {
      high: typeof start === 'number' && start > high ? start : high,
      line,
      unsure: unsureAfter(unsure, from, to, patches),
    });
  }
}

/** The unsure rows of `to`, `from` after `patches`: row-meta patches move the count; a whole table is counted again. */
function unsureAfter(count: number, from: CacheState, to: CacheState, patches: readonly Patch[]): number {
  let tables: Set<string> | undefined;
  let rows: Map<string, { table: string; key: string; before: WriteMeta | undefined }> | undefined;
  for (const { path } of patches) {
    // The slice or its meta map replaced (a reset, a hydration): counted anew.
    if (path.length === 0 || (path[0] === 'entitiesMeta' && path.length === 1)) return scan(to).unsure;
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

function flag(meta: WriteMeta | undefined): number {
  return meta?.ambiguous === true ? 1 : 0;
}

function inTable(metas: Record<string, WriteMeta> | undefined): number {
  let count = 0;
  if (metas) for (const key of Object.keys(metas)) count += flag(metas[key]);
  return count;
}

/** A slice the cache did not make, read once: its highest stamp and its unsure rows. */
function scan(slice: CacheState): { high: number; unsure: number } {
  let high = stampOf(slice.lastReset);
  let unsure = 0;
  for (const key of Object.keys(slice.meta)) high = Math.max(high, stampOf(slice.meta[key]?.fetchedAt));
  for (const table of Object.keys(slice.entitiesMeta)) {
    const metas = slice.entitiesMeta[table]!;
    let last: unknown;
    for (const key of Object.keys(metas)) {
      const meta = metas[key];
      unsure += flag(meta);
      // The rows of one write share one meta object: its stamp is read once.
      if (meta === last) continue;
      last = meta;
      high = Math.max(high, stampOf(meta?.fetchedAt));
    }
  }
  return { high, unsure };
}

/** A stamp the clock can count up from; any other (restored state with `1e300`) is not followed. */
function stampOf(value: unknown): number {
  return typeof value === 'number' && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? value : 0;
}
