/**
 * One memoized read of the store: the plain read delegate (denormalize/PlainRead.ts), plus a
 * record of every row and table the read touches, with row-backed values served from and stored
 * into the EntityCache and computed results from the ComputedMemo.
 */

import type { Dict } from '../base/dict.js';
import { nextSerial } from '../base/serial.js';
import type { CacheState, Row } from '../base/state.js';
import { MISS, PlainRead, type Build } from '../denormalize/PlainRead.js';
import type { ComputedMemo } from './ComputedMemo.js';
import type { CachedValue, EntityCache, LensFn } from './EntityCache.js';
import { CHILD, dropSelf, LENS, tablesIn, VIA, writeAll, type Changes } from './deps.js';
import { tableId } from '../base/tableDiffs.js';

/** Records up to this many slots are copied into the record of a value holding them; longer ones are named. */
const COPIED_UP_TO = 12;

/** The record of an entity still being built (what a VIA link names until it is done). */
const BUILDING: readonly unknown[] = [];

/** A value's memo entry while its value is built: named by VIA links, then stored as it is. */
interface Entry {
  deps: readonly unknown[];
  value: unknown;
  lenses: readonly LensFn[] | undefined | null;
  mark: number;
  read: number;
  tables: readonly string[] | undefined;
  validIn: number;
}

export class ReadWalk extends PlainRead {
  /**
   * This read's number: the entries it builds or finds valid carry it (`read`), so a row met
   * again within the read (a shared author, a node of a graph that many nodes hold) is served at
   * once, and checks and table notes skip the records it has seen.
   */
  private readonly serial = nextSerial();
  /**
   * Rows the read itself looked up (outside any entity), as `table, key, row` triples: set by
   * `finish()`, once the walk is done.
   */
  deps: unknown[] = [];
  /**
   * The row-backed values the read returned at its top level; their deps are dependencies of the
   * read too. Kept by reference rather than flattened into `deps`: a list of 10,000 posts would
   * otherwise copy every post's dependencies on every re-read.
   */
  readonly children: CachedValue[] = [];
  /** Tables read whole (e.g. by All). */
  private readonly whole = new Set<string>();
  /**
   * One log of every triple the read records, written from `end`: the values being built each
   * own the range from where they started, and take a copy of it as their record when done (one
   * allocation of the right size; a value's rows are written once, in place, for every value
   * being built around it). `end` is moved back past a value that a CHILD triple names instead.
   * Outside any entity the log holds the read's own triples (`deps`).
   */
  private readonly log: unknown[] = [];
  private end = 0;
  /** Entries a cycle closed onto: their VIA triples naming themselves are dropped once built. */
  private closed: Set<Entry> | undefined = undefined;
  /** Whether the value being built holds a VIA link (its own or a copied child's). */
  private links = false;
  /** The lens functions the value being built read (itself or through what it holds), first read first. */
  private lensFns: LensFn[] | undefined = undefined;
  /**
   * The tables of every row the read recorded, noted as rows are recorded (and by a scan of the
   * records it reused), so finding them needs no walk over the whole read afterwards.
   */
  private readonly rowTabs: string[] = [];
  /** Notes `table` as read (a read touches a few tables). */
  private note(table: string): void {
    if (!this.rowTabs.includes(table)) this.rowTabs.push(table);
  }

  constructor(
    state: CacheState,
    args: readonly unknown[],
    /** `argsKey(args)`: the memo key of results computed for these args. */
    private readonly argsKey: string,
    private readonly cache: EntityCache,
    private readonly memo: ComputedMemo,
    maxEntityDepth: number,
    /** What changed since the state the read before this one was valid in (memo/deps.ts). */
    private readonly changes?: Changes,
  ) {
    super(state.entities, args, maxEntityDepth);
    this.mapId = tableId(state.entities);
  }

  /** The `tableId` of the map of tables this read reads: records found valid or built are valid in it. */
  private readonly mapId: number;

  override lens(lens: LensFn): string | undefined {
    const value = this.lensOf(lens);
    this.put(LENS, lens, value);
    this.noteLens(lens);
    return value;
  }

  override computed(owner: object, input: unknown, compute: () => unknown): unknown {
    return this.memo.get(owner, this.argsKey, input, compute);
  }

  override row(table: string, key: string): Row | undefined {
    const row = this.entities[table]?.[key];
    this.put(table, key, row);
    this.note(table);
    return row;
  }

  override table(table: string): Dict<Row> | undefined {
    this.whole.add(table);
    return this.entities[table];
  }

  protected override absent(table: string, key: string, row: Row | undefined): void {
    this.note(table);
    this.put(table, key, row);
  }

  /**
   * A cycle back to a row being built gets the same object, as recursive graphs need. The value
   * closing the cycle then holds that object, so it depends on all the entity reads (VIA its entry).
   */
  protected override cycle(at: number, table: string, key: string, row: object): void {
    this.note(table);
    this.put(table, key, row);
    const target = this.path[at + 3] as Entry;
    this.put(VIA, target, undefined);
    this.links = true;
    (this.closed ??= new Set()).add(target);
  }

  /** A value the EntityCache holds for `row`, still valid: its record becomes part of this read's. */
  protected override reuse(owner: object, row: object, table: string): unknown {
    this.note(table);
    const serial = this.serial;
    const cached = this.cache.get(owner, row, this.entities, this.lensOf, serial, this.changes);
    if (!cached) return MISS;
    // Found valid for the first time in this read: its tables are noted once (found once per
    // value). A record of one row a check found valid first (memo/deps.ts) reads only the table
    // noted above.
    if (cached.read !== serial) {
      const tables = (cached.tables ??= tablesIn(cached.deps));
      for (let i = 0; i < tables.length; i++) this.note(tables[i]!);
      cached.read = serial;
    }
    cached.validIn = this.mapId;
    this.adopt(cached);
    return cached.value;
  }

  /** Builds the value with a record of what it reads: its entry, adopted by the value around it. */
  protected override make(owner: object, row: object, key: string, build: Build, table: string): unknown {
    const start = this.end;
    this.put(table, key, row);
    const entry: Entry = {
      deps: BUILDING,
      value: undefined,
      lenses: undefined,
      mark: 0,
      read: this.serial,
      tables: undefined,
      validIn: this.mapId,
    };
    const linksBefore = this.links;
    const lensesBefore = this.lensFns;
    this.links = false;
    this.lensFns = undefined;
    try {
      entry.value = this.build(owner, row, key, build, entry);
    } finally {
      // Also when the build threw: values that closed a cycle onto this entry name what it read.
      const deps = this.log.slice(start, this.end);
      if (this.closed?.delete(entry)) dropSelf(deps, entry);
      entry.deps = deps;
      entry.lenses = this.links ? null : this.lensFns;
      this.links = linksBefore;
      this.lensFns = lensesBefore;
    }
    this.adopt(entry, start);
    return entry;
  }

  /** A complete value is cached against its row; one the depth limit cut short is not (PlainRead keeps its entry). */
  protected override keep(owner: object, row: object, made: unknown): void {
    this.cache.set(owner, row, made as Entry, this.lensOf);
  }

  /** What `make` returns here is an entry (adopted as it was made). */
  protected override valueOf(made: unknown): unknown {
    return (made as Entry).value;
  }

  /** A value the depth limit cut short, met again: its entry is adopted where it is met. */
  protected override reuseCut(held: unknown): unknown {
    this.adopt(held as Entry);
    return (held as Entry).value;
  }

  /** Writes one triple at the end of the log. */
  private put(a: unknown, b: unknown, c: unknown): void {
    const log = this.log;
    const end = this.end;
    log[end] = a;
    log[end + 1] = b;
    log[end + 2] = c;
    this.end = end + 3;
  }

  /**
   * Makes a value's dependencies those of the value being built (or of the whole read). A short
   * record is copied (a flat check is cheapest); a longer one is named by one CHILD triple, also
   * when it holds VIA links: copying those up to the entity they name would copy a shared value's
   * record once per holder, which grows exponentially on a graph whose nodes are each held twice
   * (memo/deps.ts: walks over records visit each once, so a cycle through names ends). `start` is
   * where the record of a value just built begins in the log: a short one is already in place
   * there (copied over its range when it holds links: `dropSelf` may have shortened it).
   */
  private adopt(cached: CachedValue, start?: number): void {
    // The path is empty outside any entity.
    if (this.path.length === 0) {
      if (start !== undefined) this.end = start;
      this.children.push(cached);
      return;
    }
    // A record with links keeps no list of its lenses (null); the value holding it is then scanned when stored.
    const lenses = cached.lenses;
    const links = lenses === null;
    if (links) this.links = true;
    else if (lenses !== undefined) for (let i = 0; i < lenses.length; i++) this.noteLens(lenses[i]!);
    const deps = cached.deps;
    // A record of one row (a user) is named too: a value many others hold is then checked once
    // per read, where each copy of its row would be looked up again.
    if (deps.length > COPIED_UP_TO || (deps.length === 3 && !links)) {
      if (start !== undefined) this.end = start;
      this.put(CHILD, cached, undefined);
    } else if (start === undefined || links) this.end = writeAll(this.log, start ?? this.end, deps);
  }

  private noteLens(lens: LensFn): void {
    const lenses = this.lensFns;
    if (lenses === undefined) this.lensFns = [lens];
    else if (!lenses.includes(lens)) lenses.push(lens);
  }

  /** Ends the walk: the read's own triples become `deps` (the log goes with this walk). */
  finish(): void {
    this.deps = this.log.slice(0, this.end);
  }

  /** Every table this read depended on, with whether it read it whole (the objects it saw are the state's). */
  tablesRead(): [table: string, whole: boolean][] {
    const tables: [string, boolean][] = [...this.whole].map(table => [table, true]);
    for (const table of this.rowTabs) if (!this.whole.has(table)) tables.push([table, false]);
    return tables;
  }
}
