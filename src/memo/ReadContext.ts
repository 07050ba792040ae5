/**
 * One read of the store: implements the delegates the constructs read through, records every row
 * and table the read touches, and serves row-backed values from the EntityCache.
 */

import { INVALID, type DenormalizeDelegate, type QueryDelegate } from '../schema/contract.js';
import type { Dict } from '../shared/dict.js';
import { warnOnce } from '../shared/env.js';
import type { CacheState, Row } from '../shared/state.js';
import { queryKey } from '../denormalize/queryKey.js';
import { isValidLens } from '../schema/Scalar.js';
import { unvisit } from '../denormalize/unvisit.js';
import type { ComputedMemo } from './ComputedMemo.js';
import { LENS, type CachedValue, type EntityCache, type LensFn } from './EntityCache.js';

/** A table a read depended on: its name, the object the read saw, and whether it read it whole. */
export type TableRead = readonly [table: string, seen: unknown, whole: boolean];

export class ReadContext implements DenormalizeDelegate, QueryDelegate {
  /** Rows the read itself looked up (outside any entity), as `table, key, row` triples. */
  readonly deps: unknown[] = [];
  /**
   * The row-backed values the read returned at its top level; their deps are dependencies of the
   * read too. Kept by reference rather than flattened into `deps`: a list of 10,000 posts would
   * otherwise copy every post's dependencies on every re-read.
   */
  readonly children: CachedValue[] = [];
  /** Tables read whole (e.g. by All), with the object read. */
  private readonly wholeTables = new Map<string, unknown>();
  private frame: unknown[] = this.deps;
  /** Values being built, by owner and then row: a cycle back to a row gets the same object. */
  private readonly building = new Map<object, Map<object, object>>();
  private depth = 0;
  /** Set when the depth limit cut a read short: such values are not cached (they are incomplete). */
  private truncated = false;
  /** Each lens function's value for this read's args, computed once per read. */
  private readonly lenses = new Map<LensFn, string | undefined>();
  /**
   * A lens that is not a string without `|` reads as no lens at all (§10.2), so it is recorded
   * as `undefined`: args equal by value then share views even when the lens is an object.
   */
  private readonly lensOf = (lens: LensFn): string | undefined => {
    if (this.lenses.has(lens)) return this.lenses.get(lens);
    const raw = lens(this.args);
    const value = isValidLens(raw) ? raw : undefined;
    this.lenses.set(lens, value);
    return value;
  };

  constructor(
    readonly state: CacheState,
    readonly args: readonly unknown[],
    /** `argsKey(args)`: the memo key of results computed for these args. */
    private readonly argsKey: string,
    private readonly cache: EntityCache,
    private readonly memo: ComputedMemo,
    private readonly maxEntityDepth: number,
  ) {}

  lens(lens: LensFn): string | undefined {
    const value = this.lensOf(lens);
    this.frame.push(LENS, lens, value);
    return value;
  }

  computed(owner: object, input: unknown, compute: () => unknown): unknown {
    return this.memo.get(owner, this.argsKey, input, compute);
  }

  unvisit(schema: unknown, input: unknown): unknown {
    return unvisit(schema, input, this);
  }

  queryKey(schema: unknown, args: readonly unknown[]): unknown {
    return queryKey(schema, args, this);
  }

  row(table: string, key: string): Row | undefined {
    const row = this.state.entities[table]?.[key];
    this.frame.push(table, key, row);
    return row;
  }

  table(table: string): Dict<Row> | undefined {
    const value = this.state.entities[table];
    this.wholeTables.set(table, value);
    return value;
  }

  entity(table: string, key: string, build: (row: object, hold: (value: object) => void) => unknown, owner: object): unknown {
    const entities = this.state.entities;
    const row = entities[table]?.[key];
    if (row === undefined || row === null) {
      this.frame.push(table, key, row);
      return row === null ? INVALID : undefined;
    }
    let building = this.building.get(owner);
    if (!building) this.building.set(owner, (building = new Map()));
    const held = building.get(row);
    if (held) {
      // A cycle back to a row being built: the same object, as §3.7 asks of recursive graphs.
      this.frame.push(table, key, row);
      return held;
    }
    const cached = this.cache.get(owner, row, entities, this.lensOf);
    if (cached) {
      this.adopt(cached);
      return cached.value;
    }
    if (this.depth >= this.maxEntityDepth) {
      // §2.2.9: reads never throw for depth; deeper refs stay as they are stored.
      warnOnce(`A read nests entities deeper than maxEntityDepth (${this.maxEntityDepth}); deeper refs are left unresolved.`);
      this.truncated = true;
      this.frame.push(table, key, row);
      return key;
    }
    const parent = this.frame;
    const frame: unknown[] = [table, key, row];
    const truncatedBefore = this.truncated;
    this.truncated = false;
    this.frame = frame;
    this.depth++;
    let value: unknown;
    try {
      value = build(row, instance => building.set(row, instance));
    } finally {
      this.depth--;
      this.frame = parent;
      building.delete(row);
    }
    const built: CachedValue = { deps: frame, value };
    if (!this.truncated) this.cache.set(owner, row, built, entities);
    this.truncated ||= truncatedBefore;
    this.adopt(built);
    return value;
  }

  /** Makes a value's dependencies those of the value being built (or of the whole read). */
  private adopt(cached: CachedValue): void {
    if (this.frame === this.deps) this.children.push(cached);
    else appendAll(this.frame, cached.deps);
  }

  /** Calls `visit(table, key, row)` for every dependency of the read. */
  forEachDep(visit: (table: string, key: string, row: unknown) => void): void {
    someDep(this.deps, this.children, (table, key, row) => (visit(table, key, row), false));
  }

  /** Every table this read depended on, with the object it saw (absent tables as undefined). */
  tablesRead(): TableRead[] {
    const tables: TableRead[] = [...this.wholeTables].map(([table, seen]) => [table, seen, true]);
    const named = new Set(this.wholeTables.keys());
    const entities = this.state.entities;
    let last: string | undefined;
    this.forEachDep(table => {
      if (table !== last && !named.has(table)) {
        named.add(table);
        tables.push([table, entities[table], false]);
      }
      last = table;
    });
    return tables;
  }
}

/**
 * True as soon as `test(table, key, row)` is true for a row dependency of a read: its own `deps`,
 * then its top-level `children`'s. Takes the arrays rather than the ReadContext, so what keeps a
 * read's dependencies does not keep the whole context (and the state it read) alive.
 */
export function someDep(
  deps: readonly unknown[],
  children: readonly CachedValue[],
  test: (table: string, key: string, row: unknown) => boolean,
): boolean {
  if (someTriple(deps, test)) return true;
  for (const child of children) if (someTriple(child.deps, test)) return true;
  return false;
}

function someTriple(deps: readonly unknown[], test: (table: string, key: string, row: unknown) => boolean): boolean {
  for (let i = 0; i < deps.length; i += 3) {
    if (deps[i] !== LENS && test(deps[i] as string, deps[i + 1] as string, deps[i + 2])) return true;
  }
  return false;
}

function appendAll(target: unknown[], items: readonly unknown[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i]);
}
