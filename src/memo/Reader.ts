/**
 * The memoized reads of one cache instance (docs/architecture.md, "Reads and the memo model").
 *
 * Two levels:
 * 1. Whole reads, per schema and args (a bounded LRU per schema, the schema held weakly): reused
 *    while every table the read touched is the same object, so an unchanged store, or a write to
 *    other tables, costs O(tables read) whatever the size of the result.
 * 2. Row-backed values (EntityCache): when a table did change, the read is walked again, but every
 *    entity whose rows are unchanged comes back as the same object, and containers whose members
 *    are all unchanged are reused (reuse.ts).
 */

import { INVALID } from '../schema/contract.js';
import { Lru } from '../base/Lru.js';
import { argsKey } from '../base/json.js';
import { changedKeysSince, tableId } from '../base/tableDiffs.js';
import type { CacheState } from '../base/state.js';
import { ComputedMemo } from './ComputedMemo.js';
import { EntityCache, type Entities } from './EntityCache.js';
import { someDep, type Changes } from './deps.js';
import { ReadWalk } from './ReadWalk.js';
import { firstMember, reuse } from './reuse.js';

/** One memoized read. `value` may be INVALID (read as deleted). */
export interface ReadResult {
  readonly value: unknown;
  /** The query key (for reads without a stored result) or the stored result that was read. */
  readonly key: unknown;
  /** True as soon as `test` is true for a row the read depended on (each row of its records is visited once). */
  someDep(test: (table: string, key: string, row: unknown) => boolean): boolean;
}

/**
 * A table a read used, with the table object it saw named by its `tableId` (0: absent). The entry
 * only needs to know whether the state still holds that very object, and holding the object (or a
 * WeakRef to it: a WeakRef made or read keeps its target alive until the end of the job, so a loop
 * of writes and reads in one event handler would keep every copy) would keep old copies of a
 * table in memory.
 */
type HeldTable = readonly [table: string, seen: number, whole: boolean];

interface Entry extends ReadResult {
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

/** The two reads remembered per schema and args. */
interface Entries {
  query: Entry | undefined;
  result: Entry | undefined;
}

/** More changed keys than this since the last read, and the read is simply walked again. */
const MAX_CHANGED_KEYS = 256;

export interface ReaderOptions {
  /** How many distinct args (or lens values) are remembered per schema. */
  argsCacheSize: number;
  /** Entities nested deeper than this are left as their refs (docs/errors.md#max_depth_exceeded). */
  maxEntityDepth: number;
  /** How many views of one row (one per lens value) are remembered. */
  lensCacheSize: number;
}

/** Marks a read that builds its own key from the store (no stored result). */
const FROM_STORE = Symbol('lenscache.fromStore');

export class Reader {
  private entities: EntityCache;
  private computed: ComputedMemo;
  /** Per schema and args key: the read with a stored result and the read without (neither evicts the other). */
  private entries = new WeakMap<object, Lru<string, Entries>>();
  /** Per schema, the last container read with each first member, whatever the args. */
  private boxes = new WeakMap<object, WeakMap<object, unknown>>();

  constructor(private readonly options: ReaderOptions) {
    this.entities = new EntityCache(options.lensCacheSize);
    this.computed = new ComputedMemo(options.argsCacheSize);
  }

  /** A read without a stored response: query key from the store, then denormalize (selectQuery). */
  query(state: CacheState, schema: unknown, args: readonly unknown[], key = argsKey(args)): ReadResult {
    return this.read(state, schema, args, FROM_STORE, key);
  }

  /** The denormalized form of a stored result (selectResponse). `key` is `argsKey(args)`, if known. */
  result(
    state: CacheState,
    schema: unknown,
    args: readonly unknown[],
    stored: unknown,
    key = argsKey(args),
  ): ReadResult {
    return this.read(state, schema, args, stored, key);
  }

  private read(
    state: CacheState,
    schema: unknown,
    args: readonly unknown[],
    input: unknown,
    argsMemoKey: string,
  ): ReadResult {
    const slot = this.slot(schema);
    // Reads with and without a stored result are remembered apart, so they do not evict each other.
    const fromStore = input === FROM_STORE;
    const pair = slot?.get(argsMemoKey);
    const previous = fromStore ? pair?.query : pair?.result;
    const entities = state.entities;
    // Maps of tables are new on every write that changes a table: the same map, the same tables.
    const mapId = tableId(entities);
    let changes: Changes | undefined;
    if (previous && previous.input === input) {
      if (previous.validIn === mapId) return previous;
      if (tablesUnchanged(previous.tables, entities)) {
        previous.validIn = mapId;
        return previous;
      }
      changes = changesSince(previous, entities);
      if (changesMissed(previous, changes, entities)) {
        previous.validIn = mapId;
        return previous;
      }
    }

    const context = new ReadWalk(
      state,
      args,
      argsMemoKey,
      this.entities,
      this.computed,
      this.options.maxEntityDepth,
      changes,
    );
    const key = input === FROM_STORE ? context.queryKey(schema, args) : input;
    // The same stored result read the other way in this very state (a fetch's read-back, then a
    // component's read of the query): its value, and what both reads depend on. (No chain grows:
    // while this entry is valid, so is the one it took, which its own side then returns.)
    const other = fromStore ? pair?.result : pair?.query;
    const same = other?.validIn === mapId && other.key === key ? other : undefined;
    const value = same
      ? same.value
      : key === undefined
        ? undefined
        : key === INVALID
          ? INVALID
          : context.unvisit(schema, key);
    context.finish();
    const { deps, children } = context;
    const entry: Entry = {
      input,
      key,
      value: this.reused(schema, previous, value),
      someDep: test => someDep(deps, children, test) || !!same?.someDep(test),
      tables: context
        .tablesRead()
        .map(([table, whole]): HeldTable => [table, heldId(entities[table]), whole])
        .concat(same?.tables ?? []),
      validIn: mapId,
      checked: false,
    };
    if (slot !== undefined) {
      if (pair === undefined)
        slot.set(argsMemoKey, fromStore ? { query: entry, result: undefined } : { query: undefined, result: entry });
      else if (fromStore) pair.query = entry;
      else pair.result = entry;
    }
    return entry;
  }

  /**
   * A recomputed container holding the very same members is the previous one, whether it
   * was read with these args or others (args that differ only outside the pk and the lens, e.g.
   * `{ portfolio: 'A' }` and `{ portfolio: 'A', x: 1 }`, give the same `All` or root Scalar list).
   */
  /**
   * Forgets every read (after a reset, whose old rows the entries would otherwise hold until
   * evicted). Reads of other stores sharing this cache are simply built again.
   */
  clear(): void {
    this.entities = new EntityCache(this.options.lensCacheSize);
    this.computed = new ComputedMemo(this.options.argsCacheSize);
    this.entries = new WeakMap();
    this.boxes = new WeakMap();
  }

  /** Forgets the reads of `schema` for args (`argsKey(args)`): their data was collected. */
  forget(schema: unknown, argsMemoKey: string): void {
    if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null) return;
    this.entries.get(schema)?.delete(argsMemoKey);
  }

  private reused(schema: unknown, previous: Entry | undefined, value: unknown): unknown {
    const result = reuse(previous?.value, value);
    if (result !== value || typeof schema !== 'object' || schema === null) return result;
    const first = firstMember(value);
    if (first === undefined) return result;
    // Containers are found by their first member: one lookup, and a candidate with other members
    // (another lens) is never scanned for.
    let byFirst = this.boxes.get(schema);
    if (!byFirst) this.boxes.set(schema, (byFirst = new WeakMap()));
    const candidate = byFirst.get(first);
    const shared = candidate === previous?.value ? value : reuse(candidate, value);
    byFirst.set(first, shared);
    return shared;
  }

  private slot(schema: unknown): Lru<string, Entries> | undefined {
    if (typeof schema !== 'object' && typeof schema !== 'function') return undefined;
    if (schema === null) return undefined;
    let slot = this.entries.get(schema);
    if (!slot) this.entries.set(schema, (slot = new Lru(this.options.argsCacheSize)));
    return slot;
  }
}

/**
 * True when every table that changed since `entry` was read changed only in rows it did not read
 * (known from the reducer's records, tableDiffs.ts); the entry then moves to the current tables.
 * This keeps a read O(changed rows) when a shared table changes elsewhere: one lens's Scalar cell
 * written, a post outside a filtered list updated.
 */
function changesMissed(entry: Entry, changes: Changes, entities: Entities): boolean {
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
    if (entry.someDep(touches)) return false;
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
function changesSince(entry: Entry, entities: Entities): Changes {
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
  entry.someDep((table, key) => {
    let set = keys.get(table);
    if (!set) keys.set(table, (set = new Set()));
    set.add(key);
    return false;
  });
  return keys;
}

function tablesUnchanged(tables: readonly HeldTable[], entities: Entities): boolean {
  for (const [table, seen] of tables) if (heldId(entities[table]) !== seen) return false;
  return true;
}

/** The `tableId` of a table, or 0 for an absent one. */
function heldId(table: unknown): number {
  return typeof table === 'object' && table !== null ? tableId(table) : 0;
}
