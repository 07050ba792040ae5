/**
 * The memo of row-backed values (entities now; collection rows and lens views later).
 *
 * A value is cached under the row object it was built from, with the list of every row it read
 * (its dependencies, as `table, key, row` triples). It is reused while each of those rows is the
 * very same object in the current state. Because writes keep untouched rows identical, a write
 * invalidates only the values that read a changed row, and their ancestors.
 *
 * Keys are the row objects themselves in a WeakMap, so a cached value is released with its row.
 */

import type { Dict } from '../shared/dict.js';
import type { Row } from '../shared/state.js';

export interface CachedValue {
  /** Flat `table, key, row` triples: every row read, this value's own row first. */
  readonly deps: readonly unknown[];
  readonly value: unknown;
}

export type Entities = Dict<Dict<Row>>;

export function depsValid(deps: readonly unknown[], entities: Entities): boolean {
  for (let i = 0; i < deps.length; i += 3) {
    if (entities[deps[i] as string]?.[deps[i + 1] as string] !== deps[i + 2]) return false;
  }
  return true;
}

export class EntityCache {
  private readonly byRow = new WeakMap<object, CachedValue[]>();

  get(row: object, entities: Entities): CachedValue | undefined {
    const list = this.byRow.get(row);
    if (!list) return undefined;
    for (const cached of list) if (depsValid(cached.deps, entities)) return cached;
    return undefined;
  }

  set(row: object, cached: CachedValue, entities: Entities): void {
    const list = this.byRow.get(row);
    // Entries for nested rows that have since changed are dead weight: keep only the live ones.
    const live = list ? list.filter(entry => depsValid(entry.deps, entities)) : [];
    live.unshift(cached);
    this.byRow.set(row, live);
  }
}
