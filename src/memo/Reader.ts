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
import { tableId } from '../base/tableDiffs.js';
import type { CacheState } from '../base/state.js';
import { ComputedMemo } from './ComputedMemo.js';
import { EntityCache } from './EntityCache.js';
import { someDep, type Changes } from './deps.js';
import { CYCLED, ReadWalk } from './ReadWalk.js';
import { firstMember, reuse } from './reuse.js';
import { changesMissed, changesSince, heldId, tablesUnchanged, type Entry, type ReadResult } from './readEntry.js';

export type { ReadResult };

/** The two reads remembered per schema and args. */
interface Entries {
  query: Entry | undefined;
  result: Entry | undefined;
}

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
  /** The memo of row-backed values and of computed results that the reads share (ReadWalk). */
  entities: EntityCache;
  computed: ComputedMemo;
  /** Per schema and args key: the read with a stored result and the read without (neither evicts the other). */
  private entries = new WeakMap<object, Lru<string, Entries>>();
  /** Per schema, the last container read with each first member, whatever the args. */
  private containers = new WeakMap<object, WeakMap<object, unknown>>();

  constructor(readonly options: ReaderOptions) {
    this.entities = new EntityCache(options.lensCacheSize);
    this.computed = new ComputedMemo(options.argsCacheSize);
  }

  /**
   * A read without a stored response: query key from the store, then denormalize (selectQuery).
   * `records`: the caller will ask for the rows read (`someDep`).
   */
  query(
    state: CacheState,
    schema: unknown,
    args: readonly unknown[],
    key = argsKey(args),
    records = false,
  ): ReadResult {
    return this.read(state, schema, args, FROM_STORE, key, records);
  }

  /** The denormalized form of a stored result (selectResponse). `key` is `argsKey(args)`, if known. */
  result(
    state: CacheState,
    schema: unknown,
    args: readonly unknown[],
    stored: unknown,
    key = argsKey(args),
    records = false,
  ): ReadResult {
    return this.read(state, schema, args, stored, key, records);
  }

  /**
   * The first read of a schema and args builds its values unrecorded (the plain read's pace); the
   * next one that finds a table changed, or a caller that needs the rows read, builds them with
   * records (docs/architecture.md, "Reads and the memo model").
   */
  private read(
    state: CacheState,
    schema: unknown,
    args: readonly unknown[],
    input: unknown,
    argsMemoKey: string,
    records: boolean,
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
    if (previous && previous.input === input && (previous.recorded || !records)) {
      if (previous.validIn === mapId) return previous;
      if (tablesUnchanged(previous.tables, entities)) {
        previous.validIn = mapId;
        return previous;
      }
      if (previous.recorded) {
        changes = changesSince(previous, entities);
        if (changesMissed(previous, changes, entities)) {
          previous.validIn = mapId;
          return previous;
        }
      }
    }

    const walk = (recording: boolean) => {
      const context = new ReadWalk(state, args, argsMemoKey, this, changes, recording);
      const key = fromStore ? context.queryKey(schema, args) : input;
      const value = key === undefined ? undefined : key === INVALID ? INVALID : context.unvisit(schema, key);
      context.finish();
      return { context, key, value };
    };
    let read: ReturnType<typeof walk>;
    try {
      read = walk(records || previous !== undefined);
    } catch (caught) {
      // An unrecorded read that met a cycle is made again, recording (ReadWalk.cycle).
      if (caught !== CYCLED) throw caught;
      read = walk(true);
    }
    const { context, key, value } = read;
    const { deps, children, recording } = context;
    const entry: Entry = {
      input,
      key,
      value: this.reused(schema, previous, value),
      someDep: recording ? test => someDep(deps, children, test) : undefined,
      recorded: recording,
      tables: context.tablesRead().map(([table, whole]) => [table, heldId(entities[table]), whole]),
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
   * Forgets every read (after a reset, whose old rows the entries would otherwise hold until
   * evicted). Reads of other stores sharing this cache are simply built again.
   */
  clear(): void {
    this.entities = new EntityCache(this.options.lensCacheSize);
    this.computed = new ComputedMemo(this.options.argsCacheSize);
    this.entries = new WeakMap();
    this.containers = new WeakMap();
  }

  /** Forgets the reads of `schema` for args (`argsKey(args)`): their data was collected. */
  forget(schema: unknown, argsMemoKey: string): void {
    if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null) return;
    this.entries.get(schema)?.delete(argsMemoKey);
  }

  /**
   * A recomputed container holding the very same members is the previous one, whether it
   * was read with these args or others (args that differ only outside the pk and the lens, e.g.
   * `{ portfolio: 'A' }` and `{ portfolio: 'A', x: 1 }`, give the same `All` or root Scalar list).
   */
  private reused(schema: unknown, previous: Entry | undefined, value: unknown): unknown {
    const result = reuse(previous?.value, value);
    if (result !== value || typeof schema !== 'object' || schema === null) return result;
    const first = firstMember(value);
    if (first === undefined) return result;
    // Containers are found by their first member: one lookup, and a candidate with other members
    // (another lens) is never scanned for.
    let byFirst = this.containers.get(schema);
    if (!byFirst) this.containers.set(schema, (byFirst = new WeakMap()));
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

