/**
 * One memoized read of the store: the plain read delegate (denormalize/PlainRead.ts), plus a
 * record of every row and table the read touches, with row-backed values served from and stored
 * into the EntityCache and computed results from the ComputedMemo.
 */

import { INVALID } from '../schema/contract.js';
import type { Dict } from '../shared/dict.js';
import type { CacheState, Row } from '../shared/state.js';
import { PlainRead, type Build } from '../denormalize/PlainRead.js';
import type { ComputedMemo } from './ComputedMemo.js';
import { LENS, type CachedValue, type EntityCache, type LensFn } from './EntityCache.js';

/** A table a read depended on: its name, the object the read saw, and whether it read it whole. */
export type TableRead = readonly [table: string, seen: unknown, whole: boolean];

export class ReadContext extends PlainRead {
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

  constructor(
    state: CacheState,
    args: readonly unknown[],
    /** `argsKey(args)`: the memo key of results computed for these args. */
    private readonly argsKey: string,
    private readonly cache: EntityCache,
    private readonly memo: ComputedMemo,
    maxEntityDepth: number,
  ) {
    super(state.entities, args, maxEntityDepth);
  }

  override lens(lens: LensFn): string | undefined {
    const value = this.lensOf(lens);
    this.frame.push(LENS, lens, value);
    return value;
  }

  override computed(owner: object, input: unknown, compute: () => unknown): unknown {
    return this.memo.get(owner, this.argsKey, input, compute);
  }

  override row(table: string, key: string): Row | undefined {
    const row = this.entities[table]?.[key];
    this.frame.push(table, key, row);
    return row;
  }

  override table(table: string): Dict<Row> | undefined {
    const value = this.entities[table];
    this.wholeTables.set(table, value);
    return value;
  }

  /** The memoized entity read: a cycle, then the EntityCache, then a walk that records deps. */
  override entity(table: string, key: string, build: Build, owner: object): unknown {
    const entities = this.entities;
    const row = entities[table]?.[key];
    if (row === undefined || row === null) {
      this.frame.push(table, key, row);
      return row === null ? INVALID : undefined;
    }
    const held = this.held(owner, row);
    if (held) {
      // A cycle back to a row being built: the same object, as recursive graphs need.
      this.frame.push(table, key, row);
      return held;
    }
    const cached = this.cache.get(owner, row, entities, this.lensOf);
    if (cached) {
      this.adopt(cached);
      return cached.value;
    }
    if (this.tooDeep()) {
      this.frame.push(table, key, row);
      return key;
    }
    const parent = this.frame;
    const frame: unknown[] = [table, key, row];
    const truncatedBefore = this.truncated;
    this.truncated = false;
    this.frame = frame;
    let value: unknown;
    try {
      value = this.build(owner, row, build);
    } finally {
      this.frame = parent;
    }
    const built: CachedValue = { deps: frame, value };
    // Values the depth limit cut short are incomplete: they are not cached.
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
    const entities = this.entities;
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
