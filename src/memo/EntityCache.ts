/**
 * The memo of row-backed values: entities, collection lists, Scalar cell copies.
 *
 * A value is cached under the row object it was built from, with the list of everything it read
 * (its dependencies, as flat triples): `table, key, row` for each row, and `LENS, lensFn, value`
 * for each lens it read. It is reused while each of those rows is the very same object in the
 * current state and each lens gives the same value for the current args. Because writes keep
 * untouched rows identical, a write invalidates only the values that read a changed row, and
 * their ancestors; and a value that read no lens is shared by every lens.
 *
 * Keys are the row objects themselves in a WeakMap, so cached values are released with their
 * rows. Per row, the views under different lens values coexist (two components at portfolios A
 * and B must not evict each other), up to `viewsPerRow`, least recently used first out.
 */

import type { Dict } from '../shared/dict.js';
import type { Row } from '../shared/state.js';

export interface CachedValue {
  /** Flat dependency triples: this value's own row first. */
  readonly deps: readonly unknown[];
  readonly value: unknown;
}

export type Entities = Dict<Dict<Row>>;

/** Marks a lens dependency triple: `LENS, lensFn, the lens value the value was built under`. */
export const LENS: unique symbol = Symbol('lenscache.lens');

export type LensFn = (args: readonly unknown[]) => unknown;

/** Gives the current read's value of a lens function. */
export type LensOf = (lens: LensFn) => unknown;

/** True when every row dependency is unchanged (lens dependencies are not looked at). */
export function rowsValid(deps: readonly unknown[], entities: Entities): boolean {
  for (let i = 0; i < deps.length; i += 3) {
    const table = deps[i];
    if (table !== LENS && entities[table as string]?.[deps[i + 1] as string] !== deps[i + 2]) return false;
  }
  return true;
}

/** True when the value can be reused for this read: same rows, and the same value of every lens. */
export function depsValid(deps: readonly unknown[], entities: Entities, lensOf: LensOf): boolean {
  for (let i = 0; i < deps.length; i += 3) {
    const table = deps[i];
    if (table === LENS) {
      if (!Object.is(lensOf(deps[i + 1] as LensFn), deps[i + 2])) return false;
    } else if (entities[table as string]?.[deps[i + 1] as string] !== deps[i + 2]) {
      return false;
    }
  }
  return true;
}

export class EntityCache {
  // Most rows have one live value; a list appears only while several coexist (e.g. per lens).
  private readonly byRow = new WeakMap<object, CachedValue | CachedValue[]>();

  constructor(private readonly viewsPerRow: number) {}

  get(row: object, entities: Entities, lensOf: LensOf): CachedValue | undefined {
    const slot = this.byRow.get(row);
    if (slot === undefined) return undefined;
    if (!Array.isArray(slot)) return depsValid(slot.deps, entities, lensOf) ? slot : undefined;
    for (let i = 0; i < slot.length; i++) {
      const cached = slot[i]!;
      if (!depsValid(cached.deps, entities, lensOf)) continue;
      // Most recently used first, so the bound drops the view unused for longest.
      if (i > 0) {
        slot.splice(i, 1);
        slot.unshift(cached);
      }
      return cached;
    }
    return undefined;
  }

  set(row: object, cached: CachedValue, entities: Entities): void {
    const slot = this.byRow.get(row);
    if (slot === undefined) {
      this.byRow.set(row, cached);
      return;
    }
    // Views whose rows have since changed are dead weight; views under other lenses are kept.
    const views = [cached];
    for (const view of Array.isArray(slot) ? slot : [slot]) {
      if (views.length >= this.viewsPerRow) break;
      if (rowsValid(view.deps, entities)) views.push(view);
    }
    this.byRow.set(row, views.length === 1 ? cached : views);
  }
}
