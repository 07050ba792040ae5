/**
 * How many rows of a slice are unsure (`ambiguous` in their meta: two overlapping mutation
 * answers disagreed on them, docs/mutations.md). Reads check a response's rows for them only
 * while the count is above zero, so a cache that never had one pays nothing. The reducer carries
 * the count from slice to slice as writes land; a slice it did not make is scanned once.
 */

import type { Patch, WriteMeta } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';

export class UnsureRows {
  /** Weakly by slice: nothing the store let go is held. */
  private readonly known = new WeakMap<CacheState, number>();

  count(slice: CacheState): number {
    let count = this.known.get(slice);
    if (count === undefined) this.known.set(slice, (count = scan(slice)));
    return count;
  }

  /** `to` is `from` after `patches`: row-meta patches move the count; a whole table is counted again. */
  carry(from: CacheState, to: CacheState, patches: readonly Patch[]): void {
    let count = this.known.get(from);
    if (count === undefined || from === to) return;
    let tables: Set<string> | undefined;
    let rows: Map<string, { table: string; key: string; before: WriteMeta | undefined }> | undefined;
    for (const { path } of patches) {
      // The slice or its meta map replaced (a reset, a hydration): counted anew.
      if (path.length === 0 || (path[0] === 'entitiesMeta' && path.length === 1))
        return void this.known.set(to, scan(to));
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
    this.known.set(to, count);
  }
}

function flag(meta: WriteMeta | undefined): number {
  return meta?.ambiguous === true ? 1 : 0;
}

function inTable(metas: Record<string, WriteMeta> | undefined): number {
  let count = 0;
  if (metas) for (const key of Object.keys(metas)) count += flag(metas[key]);
  return count;
}

function scan(slice: CacheState): number {
  let count = 0;
  for (const table of Object.keys(slice.entitiesMeta)) count += inTable(slice.entitiesMeta[table]);
  return count;
}
