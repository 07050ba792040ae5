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
  // Most rows have one live value; a list appears only while several coexist (e.g. per lens).
  private readonly byRow = new WeakMap<object, CachedValue | CachedValue[]>();

  get(row: object, entities: Entities): CachedValue | undefined {
    const slot = this.byRow.get(row);
    if (slot === undefined) return undefined;
    if (!Array.isArray(slot)) return depsValid(slot.deps, entities) ? slot : undefined;
    for (const cached of slot) if (depsValid(cached.deps, entities)) return cached;
    return undefined;
  }

  set(row: object, cached: CachedValue, entities: Entities): void {
    const slot = this.byRow.get(row);
    // Values whose nested rows have since changed are dead weight: keep only the live ones.
    const live = slot === undefined ? [] : (Array.isArray(slot) ? slot : [slot]).filter(entry => depsValid(entry.deps, entities));
    this.byRow.set(row, live.length === 0 ? cached : [cached, ...live]);
  }
}
