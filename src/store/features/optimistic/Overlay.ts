/**
 * A slice with some rows changed, without copying the tables they sit in (docs/mutations.md, "How
 * guesses are rebased"). The optimistic ledger computes every write against the confirmed state
 * and then re-runs the pending guesses over it; both states differ from the store's slice in the
 * rows the guesses cover only. An Overlay holds those rows beside the slice and shows the whole as
 * a `CacheState` whose changed tables are read-only views: a write reads them as it reads any
 * table, and what it writes is applied to the overlay row by row. So a write with guesses pending
 * costs the rows it and the guesses touch, never a copy of a whole table.
 */

import { createDict, hasOwn, type Dict } from '../../../base/dict.js';
import { setupError } from '../../../base/errors.js';
import { jsonEqual } from '../../../base/json.js';
import type { Patch } from '../../../base/patch.js';
import type { CacheState, Row } from '../../../base/state.js';
import { listPatches, PatchList } from '../../../normalize/PatchList.js';
import type { WritePayload } from '../../slice/reducer.js';
import { patchRow } from '../../slice/patchRow.js';

export type TableMap = 'entities' | 'entitiesMeta';

/** What an overlay changes in one table: the table replaced whole (`null`: absent), and rows (`undefined`: absent). */
export interface TableChange {
  whole?: Dict<unknown> | null;
  rows: Map<string, unknown>;
}

/** Changes by map and table: `"entities\u0000Post"`. */
export type Changes = Map<string, TableChange>;

const SEP = '\u0000';

export function tableId(map: TableMap, table: string): string {
  return `${map}${SEP}${table}`;
}

export function splitId(id: string): [TableMap, string] {
  const at = id.indexOf(SEP);
  return [id.slice(0, at) as TableMap, id.slice(at + 1)];
}

export class Overlay {
  private readonly changes: Changes = new Map();
  /** Patches outside the tables (results, request meta), passed through in order. */
  private readonly out: Patch[] = [];
  private readonly outUndo: Patch[] = [];
  declare private shown: CacheState | undefined;

  constructor(private readonly slice: CacheState) {}

  /** Puts `changes` over the slice (the confirmed values the ledger keeps). */
  load(changes: Changes): void {
    for (const [id, change] of changes) {
      const mine = this.change(id);
      if (change.whole !== undefined) {
        mine.whole = change.whole;
        mine.rows.clear();
      }
      for (const [key, value] of change.rows) mine.rows.set(key, value);
    }
  }

  /** The row at `key` of `table` as the overlay shows it; `undefined` when absent. */
  get(map: TableMap, table: string, key: string): unknown {
    const change = this.changes.get(tableId(map, table));
    if (change) {
      if (change.rows.has(key)) return change.rows.get(key);
      if (change.whole !== undefined)
        return change.whole !== null && hasOwn(change.whole, key) ? change.whole[key] : undefined;
    }
    const stored = this.slice[map][table] as Dict<unknown> | undefined;
    return stored !== undefined && hasOwn(stored, key) ? stored[key] : undefined;
  }

  /** Whether `table` exists as the overlay shows it. */
  hasTable(map: TableMap, table: string): boolean {
    const change = this.changes.get(tableId(map, table));
    if (change === undefined) return this.slice[map][table] !== undefined;
    if (change.whole === undefined ? this.slice[map][table] !== undefined : change.whole !== null) return true;
    for (const value of change.rows.values()) if (value !== undefined) return true;
    return false;
  }

  /** The row keys of `table` as the overlay shows it. */
  keys(map: TableMap, table: string): string[] {
    const change = this.changes.get(tableId(map, table));
    const source = change?.whole !== undefined ? change.whole : (this.slice[map][table] as Dict<unknown> | undefined);
    const keys = source ? Object.keys(source) : [];
    if (!change || change.rows.size === 0) return keys;
    const out = keys.filter(key => !change.rows.has(key));
    for (const [key, value] of change.rows) if (value !== undefined) out.push(key);
    return out;
  }

  /** The overlay as a slice: changed tables are read-only views over it (made anew after each `apply`). */
  view(): CacheState {
    if (this.shown) return this.shown;
    if (this.changes.size === 0) return (this.shown = this.slice);
    const maps = {
      entities: this.slice.entities as Dict<unknown>,
      entitiesMeta: this.slice.entitiesMeta as Dict<unknown>,
    };
    const copied = new Set<TableMap>();
    for (const id of this.changes.keys()) {
      const [map, table] = splitId(id);
      if (!copied.has(map)) {
        maps[map] = Object.assign(createDict<unknown>(), maps[map]);
        copied.add(map);
      }
      if (this.hasTable(map, table)) maps[map][table] = tableView(this, map, table);
      else delete maps[map][table];
    }
    return (this.shown = {
      ...this.slice,
      entities: maps.entities as CacheState['entities'],
      entitiesMeta: maps.entitiesMeta as CacheState['entitiesMeta'],
    });
  }

  /** Applies a write's patches: rows and tables to the overlay, everything else passed through. */
  apply(patches: readonly Patch[], inversePatches: readonly Patch[] = []): void {
    this.shown = undefined;
    for (let i = 0; i < patches.length; i++) {
      const patch = patches[i]!;
      const [map, table] = patch.path as [string, string | undefined];
      if (map !== 'entities' && map !== 'entitiesMeta') {
        this.out.push(patch);
        continue;
      }
      // (Writes patch tables and rows; nothing replaces a whole map but a reset, which clears the ledger first.)
      if (table === undefined) {
        throw setupError(
          'INVALID_ACTION',
          process.env.NODE_ENV !== 'production' && [
            `A write replaced the whole ${map} map while optimistic guesses were pending.`,
            'Writes patch tables and rows; reset the store with cache.resetEntireStore(), which drops the guesses first.',
          ],
        );
      }
      const change = this.change(tableId(map, String(table)));
      if (patch.path.length === 2) {
        change.whole = patch.op === 'remove' ? null : (patch.value as Dict<unknown>);
        change.rows.clear();
        continue;
      }
      const key = String(patch.path[2]);
      if (patch.path.length === 3) {
        change.rows.set(key, patch.op === 'remove' ? undefined : patch.value);
        continue;
      }
      // Patches inside one row (items added to or removed from a list) come together: applied at once.
      let end = i + 1;
      while (end < patches.length && sameRow(patches[end]!.path, patch.path)) end++;
      change.rows.set(key, patchRow(this.get(map, String(table), key), patches.slice(i, end)));
      i = end - 1;
    }
    for (const patch of inversePatches)
      if (patch.path[0] !== 'entities' && patch.path[0] !== 'entitiesMeta') this.outUndo.push(patch);
  }

  /**
   * The patches from the slice to what the overlay shows (a list row item by item where it can
   * be), then the patches outside the tables, in their order. Rows before their meta.
   */
  diff(): WritePayload {
    const list = new PatchList();
    for (const id of [...this.changes.keys()].sort()) {
      const [map, table] = splitId(id);
      const change = this.changes.get(id)!;
      const from = this.slice[map][table] as Dict<unknown> | undefined;
      if (!this.hasTable(map, table)) {
        list.remove([map, table], from);
        continue;
      }
      if (from === undefined || change.whole !== undefined) {
        const to = createDict<unknown>();
        for (const key of this.keys(map, table)) to[key] = this.get(map, table, key);
        if (from === undefined || wholeIsSmaller(from, to)) {
          list.set([map, table], Object.freeze(to), from);
          continue;
        }
        const read = (key: string): unknown => (hasOwn(to, key) ? to[key] : undefined);
        rowDiff(list, map, table, from, read, new Set([...Object.keys(from), ...Object.keys(to)]));
        continue;
      }
      rowDiff(list, map, table, from, key => this.get(map, table, key), change.rows.keys());
    }
    return {
      patches: [...list.patches, ...this.out],
      inversePatches: [...this.outUndo, ...list.inversePatches],
    };
  }

  private change(id: string): TableChange {
    let change = this.changes.get(id);
    if (!change) this.changes.set(id, (change = { rows: new Map() }));
    return change;
  }
}

function sameRow(a: Patch['path'], b: Patch['path']): boolean {
  return a.length > 3 && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/** One table patch when most of the table changes, as the normalizer writes tables (docs/architecture.md, "Writes"). */
function wholeIsSmaller(from: Dict<unknown>, to: Dict<unknown>): boolean {
  let changed = 0;
  const fromKeys = Object.keys(from);
  for (const key of fromKeys) if (!hasOwn(to, key) || to[key] !== from[key]) changed++;
  for (const key of Object.keys(to)) if (!hasOwn(from, key)) changed++;
  return changed > 64 && changed * 2 > fromKeys.length;
}

function rowDiff(
  list: PatchList,
  map: TableMap,
  table: string,
  from: Dict<unknown>,
  read: (key: string) => unknown,
  keys: Iterable<string>,
): void {
  for (const key of keys) {
    const a = hasOwn(from, key) ? (from[key] as Row) : undefined;
    const b = read(key) as Row | undefined;
    // A guess computed again is a new object of the same content: the shown row stays (its
    // table is not copied, and reads that depend on it keep their results).
    if (a === b || (a !== undefined && b !== undefined && jsonEqual(a, b))) continue;
    if (b === undefined) list.remove([map, table, key], a);
    else if (Array.isArray(a) && Array.isArray(b)) listPatches(list, [map, table, key], a, b);
    else list.set([map, table, key], b, a);
  }
}

/**
 * A read-only table that reads through the overlay. Its target is an empty object of its own:
 * a proxy of the frozen stored table could not report values other than the stored ones.
 */
function tableView(overlay: Overlay, map: TableMap, table: string): Dict<unknown> {
  const refuse = (): boolean => false;
  return new Proxy(createDict<unknown>(), {
    get: (_, key) => (typeof key === 'string' ? overlay.get(map, table, key) : undefined),
    has: (_, key) => typeof key === 'string' && overlay.get(map, table, key) !== undefined,
    ownKeys: () => overlay.keys(map, table),
    getOwnPropertyDescriptor: (_, key) => {
      if (typeof key !== 'string') return undefined;
      const value = overlay.get(map, table, key);
      return value === undefined ? undefined : { value, writable: false, enumerable: true, configurable: true };
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
}
