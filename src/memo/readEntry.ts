/**
 * A whole read the Reader remembers (per schema and args), and how it is found still valid after
 * a write: the tables it read, by number, and the keys written since (base/tableDiffs.ts).
 */

import { changedKeysSince, tableId } from '../base/tableDiffs.js';
import type { Changes, Entities } from './deps.js';

/** One memoized read. `value` may be INVALID (read as deleted). */
export interface ReadResult {
  readonly value: unknown;
  /** The query key (for reads without a stored result) or the stored result that was read. */
  readonly key: unknown;
  /**
   * True as soon as `test` is true for a row the read depended on (each row of its records is
   * visited once). Absent from an unrecorded read: ask with `records` for the rows read.
   */
  readonly someDep: ((test: (table: string, key: string, row: unknown) => boolean) => boolean) | undefined;
  /** Whether the read holds a record of the rows it read (see `someDep`). */
  readonly recorded: boolean;
}

/**
 * A table a read used, with the table object it saw named by its `tableId` (0: absent). The entry
 * only needs to know whether the state still holds that very object, and holding the object (or a
 * WeakRef to it: a WeakRef made or read keeps its target alive until the end of the job, so a loop
 * of writes and reads in one event handler would keep every copy) would keep old copies of a
 * table in memory.
 */
type HeldTable = readonly [table: string, seen: number, whole: boolean];

export interface Entry extends ReadResult {
  readonly input: unknown;
  /** The tables read and the objects seen; moved forward when a change missed every row read. */
  tables: readonly HeldTable[];
  /** The `tableId` of the map of tables the entry was last found valid in: the same map, the same tables. */
  validIn: number;
  /** Set once a change elsewhere has been checked against this entry (by a scan of its rows). */
  checked: boolean;
  /** The keys read per table, built when an entry outlives its first change elsewhere. */
  keysRead?: Map<string, Set<string>>;
}

/** More changed keys than this since the last read, and the read is simply walked again. */
const MAX_CHANGED_KEYS = 256;

/**
 * True when every table that changed since `entry` was read changed only in rows it did not read
 * (known from the reducer's records, tableDiffs.ts); the entry then moves to the current tables.
 * This keeps a read O(changed rows) when a shared table changes elsewhere: one lens's Scalar cell
 * written, a post outside a filtered list updated.
 */
export function changesMissed(entry: Entry, changes: Changes, entities: Entities): boolean {
  const changed = new Map<string, ReadonlySet<string>>();
  for (const [table] of entry.tables) {
    const keys = changes.tables.get(table);
    // A table read whole (All) depends on every key, added ones included; too many changed keys, or
    // a table that came or went, and the read is simply walked again.
    if (keys === undefined) return false;
    if (keys !== null) changed.set(table, keys);
  }
  const touches = (table: string, key: string): boolean => changed.get(table)?.has(key) === true;
  // The first check scans the rows read (no index: most entries hit a change and are read again);
  // an entry that outlives a change is likely to be checked again, and gets an index.
  if (!entry.checked) {
    entry.checked = true;
    // (Only recorded entries are checked: Reader.read.)
    if (entry.someDep?.(touches) !== false) return false;
  } else {
    const index = (entry.keysRead ??= keysReadBy(entry));
    for (const [table, keys] of changed) {
      const read = index.get(table);
      if (read !== undefined) for (const key of keys) if (read.has(key)) return false;
    }
  }
  entry.tables = entry.tables.map(([table, , whole]) => [table, heldId(entities[table]), whole]);
  return true;
}

/**
 * What changed in the tables `entry` read since the state it was last valid in (the reducer's
 * records, tableDiffs.ts): per table, `null` when it is the same object, else the keys written
 * (tables read whole, and tables with more changed keys than MAX_CHANGED_KEYS, are left out:
 * unknown). The walk that reads again trusts this for the values that were valid in that state
 * (memo/deps.ts), and looks up only the rows of changed keys.
 */
export function changesSince(entry: Entry, entities: Entities): Changes {
  const tables = new Map<string, ReadonlySet<string> | null>();
  for (const [table, seen, whole] of entry.tables) {
    const now = entities[table];
    if (heldId(now) === seen) tables.set(table, null);
    else if (!whole && seen !== 0 && now !== undefined) {
      const keys = changedKeysSince(seen, now, MAX_CHANGED_KEYS);
      if (keys !== undefined) tables.set(table, new Set(keys));
    }
  }
  return { since: entry.validIn, tables };
}

function keysReadBy(entry: Entry): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  entry.someDep?.((table, key) => {
    let set = keys.get(table);
    if (!set) keys.set(table, (set = new Set()));
    set.add(key);
    return false;
  });
  return keys;
}

export function tablesUnchanged(tables: readonly HeldTable[], entities: Entities): boolean {
  for (const [table, seen] of tables) if (heldId(entities[table]) !== seen) return false;
  return true;
}

/** The `tableId` of a table, or 0 for an absent one. */
export function heldId(table: unknown): number {
  return typeof table === 'object' && table !== null ? tableId(table) : 0;
}
