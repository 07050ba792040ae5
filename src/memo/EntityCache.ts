/**
 * The memo of row-backed values: entities, collection lists, Scalar cell copies.
 *
 * A value is cached under the row object it was built from, with the list of everything it read
 * (its dependencies, as flat triples, memo/deps.ts): `table, key, row` for each row, `LENS,
 * lensFn, value` for each lens it read, and `VIA` links for cycles. It is reused while each of
 * those rows is the very same object in the current state and each lens gives the same value for
 * the current args. Because writes keep untouched rows identical, a write invalidates only the
 * values that read a changed row, and their ancestors; and a value that read no lens is shared by
 * every lens.
 *
 * Keys are the row objects themselves in a WeakMap, so cached values are released with their
 * rows. Per row, the views under different lens values coexist (two components at portfolios A
 * and B must not evict each other), up to `perRow`, least recently used first out.
 */

import { Lru } from '../base/Lru.js';
import type { LensFn } from '../denormalize/PlainRead.js';
import { depsValid, lensesIn, lensValueIn, type Changes, type Entities, type LensOf, type Recorded } from './deps.js';

export { LENS, type Entities } from './deps.js';
export type { LensFn };

export interface CachedValue extends Recorded {
  /** Flat dependency triples: this value's own row first. */
  readonly deps: readonly unknown[];
  readonly value: unknown;
  /**
   * The lens functions `deps` reads (itself or through what it names), in the order first read,
   * as the read noted them; `undefined` for none. `null` when `deps` holds VIA links (memo/deps.ts):
   * their lenses are found by a scan (the entity a link names may read more after the value is
   * built), and a value holding this one copies its record.
   */
  readonly lenses: readonly LensFn[] | undefined | null;
  /** The tables `deps` reads (with what it names), found when a later read first reuses the value. */
  tables: readonly string[] | undefined;
}

/** The views of one row under different lens values, by the values of the lenses they read. */
class Views {
  constructor(
    /** The lens functions every view of this row read, in the order first read. */
    readonly lenses: readonly LensFn[],
    /** Views by lens key, least recently used out first. */
    readonly byLens: Lru<unknown, CachedValue>,
  ) {}
}

export class EntityCache {
  /**
   * Per owner (the Entity class or construct that reads the row), then per row: two classes
   * sharing a table each get their own instances. Most rows have one live value: the slot is
   * then the value itself, without a Map.
   */
  private readonly byOwner = new WeakMap<object, WeakMap<object, CachedValue | Views>>();

  /** The last owner asked for and its rows: reads ask for one class's rows many times in a row. */
  private owner: object | undefined = undefined;
  private lastRows: WeakMap<object, CachedValue | Views> | undefined = undefined;

  constructor(private readonly perRow: number) {}

  private rowsOf(owner: object): WeakMap<object, CachedValue | Views> {
    if (owner === this.owner) return this.lastRows!;
    let rows = this.byOwner.get(owner);
    if (!rows) this.byOwner.set(owner, (rows = new WeakMap()));
    this.owner = owner;
    this.lastRows = rows;
    return rows;
  }

  /**
   * The value cached for `row` that is valid in `entities` under `lensOf`. `read` is the serial of
   * the read asking (ReadWalk): a value it built or found valid already is valid still.
   */
  get(
    owner: object,
    row: object,
    entities: Entities,
    lensOf: LensOf,
    read = 0,
    changes?: Changes,
  ): CachedValue | undefined {
    const slot = this.rowsOf(owner).get(row);
    if (slot === undefined) return undefined;
    // A value's record starts with its own row, and `row` is that very row: checks start after it.
    if (!isViews(slot))
      return slot.read === read || depsValid(slot.deps, entities, lensOf, undefined, read, 0, 3, since(slot, changes))
        ? slot
        : undefined;
    // One lookup by the current lens values, not a scan over every lens ever read.
    const key = lensKey(slot.lenses, lensOf);
    const view = slot.byLens.get(key);
    if (view === undefined || view.read === read) return view;
    if (!depsValid(view.deps, entities, undefined, lensOf, read, 0, 3, since(view, changes))) {
      slot.byLens.delete(key);
      return undefined;
    }
    return view;
  }

  /** `lensOf` gives the lens values `cached` was just built under (a value built by this read). */
  set(owner: object, row: object, cached: CachedValue, lensOf: LensOf): void {
    const byRow = this.rowsOf(owner);
    const slot = byRow.get(row);
    // The first value of a row (every value of a cold read) is stored without looking at its lenses.
    const lenses = slot === undefined ? [] : cached.lenses === null ? lensesIn(cached.deps) : (cached.lenses ?? []);
    if (slot === undefined || lenses.length === 0) {
      // A value that read no lens serves every lens: it replaces whatever views were kept.
      byRow.set(row, cached);
      return;
    }
    let views: Views;
    if (isViews(slot) && sameLenses(slot.lenses, lenses)) {
      views = slot;
    } else {
      views = new Views(lenses, new Lru(this.perRow));
      // The value kept before keeps its place when it read the same lenses. Its rows are not
      // checked here: `get` checks a view before it serves it, and drops it then if a row changed.
      // (A value that read no lens and missed is stale: it goes.)
      const previous = isViews(slot) ? undefined : slot;
      const before = previous?.lenses === null ? lensesIn(previous.deps) : previous?.lenses;
      if (previous && before && sameLenses(before, lenses))
        views.byLens.set(lensKey(lenses, recordedLens(previous.deps)), previous);
      byRow.set(row, views);
    }
    views.byLens.set(lensKey(lenses, cached.lenses === null ? recordedLens(cached.deps) : lensOf), cached);
  }
}

/** `changes`, when `cached` was found valid in the state they start from. */
function since(cached: CachedValue, changes: Changes | undefined): Changes | undefined {
  return changes !== undefined && cached.validIn === changes.since ? changes : undefined;
}

function isViews(slot: CachedValue | Views): slot is Views {
  return slot instanceof Views;
}

function sameLenses(a: readonly LensFn[], b: readonly LensFn[]): boolean {
  return a.length === b.length && a.every((lens, i) => lens === b[i]);
}

/** The lens values a cached value was built under, as recorded in its deps. */
function recordedLens(deps: readonly unknown[]): LensOf {
  return lens => lensValueIn(deps, lens);
}

/**
 * One lens (the common case) keys by its value itself; several, by their values as JSON, which
 * no choice of lens strings can make ambiguous. Lens values are strings or `undefined`.
 */
function lensKey(lenses: readonly LensFn[], lensOf: LensOf): unknown {
  if (lenses.length === 1) return lensOf(lenses[0]!);
  return JSON.stringify(lenses.map(lens => lensOf(lens) ?? null));
}
