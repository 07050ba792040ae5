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
import type { CachedValue, EntityCache, LensFn } from './EntityCache.js';
import { appendAll, CHILD, dropSelf, LENS, someDep, someRow, VIA } from './deps.js';

/** A table a read depended on: its name, the object the read saw, and whether it read it whole. */
export type TableRead = readonly [table: string, seen: unknown, whole: boolean];

/** Records up to this many slots are copied into the record of a value holding them; longer ones are named. */
const COPIED_UP_TO = 12;

export class ReadWalk extends PlainRead {
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
  /** Frames a cycle closed onto: their VIA triples naming themselves are dropped once built. */
  private closedOnto: Set<unknown[]> | undefined;
  /** Whether the current frame holds a VIA link (its own or a copied child's). */
  private links = false;
  /** The lens functions the current frame read (itself or through what it holds), first read first. */
  private lensesRead: LensFn[] | undefined;
  /**
   * The tables of every row the read recorded, noted as rows are recorded (and by a scan of the
   * records it reused), so finding them needs no walk over the whole read afterwards.
   */
  private readonly rowTables: string[] = [];
  private lastTable: string | undefined;
  /** Notes `table` as read; returns false so it can serve as a `someRow` test. */
  private readonly note = (table: string): boolean => {
    if (table !== this.lastTable) {
      this.lastTable = table;
      if (!this.rowTables.includes(table)) this.rowTables.push(table);
    }
    return false;
  };

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
    this.noteLens(lens);
    return value;
  }

  override computed(owner: object, input: unknown, compute: () => unknown): unknown {
    return this.memo.get(owner, this.argsKey, input, compute);
  }

  override row(table: string, key: string): Row | undefined {
    const row = this.entities[table]?.[key];
    this.frame.push(table, key, row);
    this.note(table);
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
    this.note(table);
    if (row === undefined || row === null) {
      this.frame.push(table, key, row);
      return row === null ? INVALID : undefined;
    }
    const at = this.heldAt(owner, row);
    if (at >= 0) {
      this.closeCycle(at, table, key, row);
      return this.path[at + 2];
    }
    const cached = this.cache.get(owner, row, entities, this.lensOf);
    if (cached) {
      someRow(cached.deps, this.note);
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
    const linksBefore = this.links;
    const lensesBefore = this.lensesRead;
    this.truncated = false;
    this.links = false;
    this.lensesRead = undefined;
    this.frame = frame;
    let value: unknown;
    let links: boolean;
    let lenses: LensFn[] | undefined;
    try {
      value = this.build(owner, row, build, frame);
    } finally {
      this.frame = parent;
      links = this.links;
      lenses = this.lensesRead;
      this.links = linksBefore;
      this.lensesRead = lensesBefore;
    }
    if (this.closedOnto?.delete(frame)) dropSelf(frame);
    const built: CachedValue = { deps: frame, value, links, lenses: links ? undefined : lenses };
    // Values the depth limit cut short are incomplete: they are not cached.
    if (!this.truncated) this.cache.set(owner, row, built, entities, this.lensOf);
    this.truncated ||= truncatedBefore;
    this.adopt(built);
    return value;
  }

  /**
   * A cycle back to a row being built gets the same object, as recursive graphs need. The value
   * closing the cycle then holds that object, so it depends on all the entity reads (VIA its frame).
   */
  private closeCycle(at: number, table: string, key: string, row: object): void {
    this.frame.push(table, key, row);
    const target = this.path[at + 3] as unknown[];
    this.frame.push(VIA, target, undefined);
    this.links = true;
    (this.closedOnto ??= new Set()).add(target);
  }

  /**
   * Makes a value's dependencies those of the value being built (or of the whole read). A short
   * record is copied (a flat check is cheapest); a longer one is named by one CHILD triple, unless
   * it holds VIA links, which must be copied up to the entity they name so that `dropSelf` can cut
   * them there (memo/deps.ts, docs/benchmarks.md "Cold paths").
   */
  private adopt(cached: CachedValue): void {
    const deps = cached.deps;
    if (this.frame === this.deps) {
      this.children.push(cached);
      return;
    }
    // A record with links keeps no list of its lenses; this frame is then scanned when stored.
    const lenses = cached.lenses;
    if (lenses !== undefined) for (let i = 0; i < lenses.length; i++) this.noteLens(lenses[i]!);
    if (deps.length <= COPIED_UP_TO || cached.links) {
      appendAll(this.frame, deps);
      if (cached.links) this.links = true;
    } else this.frame.push(CHILD, cached, undefined);
  }

  private noteLens(lens: LensFn): void {
    const lenses = this.lensesRead;
    if (lenses === undefined) this.lensesRead = [lens];
    else if (!lenses.includes(lens)) lenses.push(lens);
  }

  /** Calls `visit(table, key, row)` for every dependency of the read. */
  forEachDep(visit: (table: string, key: string, row: unknown) => void): void {
    someDep(this.deps, this.children, (table, key, row) => (visit(table, key, row), false));
  }

  /** Every table this read depended on, with the object it saw (absent tables as undefined). */
  tablesRead(): TableRead[] {
    const tables: TableRead[] = [...this.wholeTables].map(([table, seen]) => [table, seen, true]);
    const entities = this.entities;
    for (const table of this.rowTables) {
      if (!this.wholeTables.has(table)) tables.push([table, entities[table], false]);
    }
    return tables;
  }
}
