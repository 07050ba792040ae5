/**
 * The dependency record of a memoized value: flat triples, read in steps of three.
 * - `table, key, row`: a row the value read, valid while the state holds that very object;
 * - `LENS, lensFn, value`: the lens value the value was built under;
 * - `VIA, entry, undefined`: the value closed a cycle onto an entity still being built, so it holds
 *   that entity's object and depends on all that entity read (`entry.deps`, its record, set once
 *   the entity is built). A record never names itself through VIA (cycles are cut when the entity
 *   is done, `dropSelf`), so following VIA always ends.
 * - `CHILD, value, undefined`: the value holds a finished row-backed value and depends on all that
 *   value read (`value.deps`), exactly as if its triples were copied here. Only records without
 *   VIA links are named this way (a record with one is copied, so `dropSelf` can cut its cycle), so
 *   following CHILD always ends too (docs/benchmarks.md, "Cold paths").
 */

import type { Entities, LensFn } from '../denormalize/PlainRead.js';

export type { Entities };

/** Marks a lens dependency triple: `LENS, lensFn, the lens value the value was built under`. */
export const LENS: unique symbol = Symbol('lenscache.lens');
/** Marks a dependency on the whole record of an entity a cycle closed onto. */
export const VIA: unique symbol = Symbol('lenscache.via');
/** Marks a dependency on the whole record of a finished value, named instead of copied. */
export const CHILD: unique symbol = Symbol('lenscache.child');

/** What CHILD and VIA triples name: a value's entry, whose record is `deps`. */
interface Recorded {
  readonly deps: readonly unknown[];
}

/** Gives the current read's value of a lens function. */
export type LensOf = (lens: LensFn) => unknown;

/**
 * True when every row dependency is unchanged and, given `lensOf`, every lens gives the value the
 * value was built under. Without `lensOf` lens dependencies are not looked at (a view found by its
 * lens values has them right already), except in records named through VIA, checked with
 * `viaLensOf`: the entity a cycle closed onto may read lenses after the view was keyed.
 */
export function depsValid(deps: readonly unknown[], entities: Entities, lensOf?: LensOf, viaLensOf?: LensOf): boolean {
  for (let i = 0; i < deps.length; i += 3) {
    const table = deps[i];
    if (table === CHILD) {
      if (!depsValid((deps[i + 1] as Recorded).deps, entities, lensOf, viaLensOf)) return false;
    } else if (table === LENS) {
      if (lensOf && !Object.is(lensOf(deps[i + 1] as LensFn), deps[i + 2])) return false;
    } else if (table === VIA) {
      const target = (deps[i + 1] as Recorded).deps;
      if (target !== deps && !depsValid(target, entities, lensOf ?? viaLensOf, viaLensOf)) return false;
    } else if (entities[table as string]?.[deps[i + 1] as string] !== deps[i + 2]) {
      return false;
    }
  }
  return true;
}

/** True as soon as `test` is true for a row triple of `deps`, or of a record it names (VIA, CHILD). */
export function someRow(
  deps: readonly unknown[],
  test: (table: string, key: string, row: unknown) => boolean,
): boolean {
  for (let i = 0; i < deps.length; i += 3) {
    const table = deps[i];
    if (table === LENS) continue;
    if (table === VIA || table === CHILD) {
      const named = (deps[i + 1] as Recorded).deps;
      if (named !== deps && someRow(named, test)) return true;
    } else if (test(table as string, deps[i + 1] as string, deps[i + 2])) {
      return true;
    }
  }
  return false;
}

/** Adds to `lenses` the lens functions `deps` read (and the records it names read). */
export function lensesIn(deps: readonly unknown[], lenses: LensFn[]): LensFn[] {
  for (let i = 0; i < deps.length; i += 3) {
    if (deps[i] === LENS) {
      if (!lenses.includes(deps[i + 1] as LensFn)) lenses.push(deps[i + 1] as LensFn);
    } else if (deps[i] === VIA || deps[i] === CHILD) {
      const named = (deps[i + 1] as Recorded).deps;
      if (named !== deps) lensesIn(named, lenses);
    }
  }
  return lenses;
}

/** What `lensValueIn` gives for a lens the record never read. */
export const NOT_READ: unique symbol = Symbol('lenscache.notRead');

/** The value `lens` had when `deps` was recorded (looking through VIA and CHILD too), or NOT_READ. */
export function lensValueIn(deps: readonly unknown[], lens: LensFn): unknown {
  for (let i = 0; i < deps.length; i += 3) {
    if (deps[i] === LENS && deps[i + 1] === lens) return deps[i + 2];
    const named = deps[i] === CHILD || deps[i] === VIA ? (deps[i + 1] as Recorded).deps : undefined;
    if (named !== undefined && named !== deps) {
      const value = lensValueIn(named, lens);
      if (value !== NOT_READ) return value;
    }
  }
  return NOT_READ;
}

/** Removes the VIA triples of `deps` that name `self`, its own entry (cycles closed onto its own entity). */
export function dropSelf(deps: unknown[], self: object): void {
  let to = 0;
  for (let i = 0; i < deps.length; i += 3) {
    if (deps[i] === VIA && deps[i + 1] === self) continue;
    deps[to++] = deps[i];
    deps[to++] = deps[i + 1];
    deps[to++] = deps[i + 2];
  }
  deps.length = to;
}

/**
 * True as soon as `test(table, key, row)` is true for a row dependency of a read: its own `deps`,
 * then its top-level `children`'s. Takes the arrays rather than the ReadWalk, so what keeps a
 * read's dependencies does not keep the whole context (and the state it read) alive.
 */
export function someDep(
  deps: readonly unknown[],
  children: readonly { readonly deps: readonly unknown[] }[],
  test: (table: string, key: string, row: unknown) => boolean,
): boolean {
  if (someRow(deps, test)) return true;
  for (const child of children) if (someRow(child.deps, test)) return true;
  return false;
}

/** Writes `items` into `target` from index `at`; returns the index after them. */
export function writeAll(target: unknown[], at: number, items: readonly unknown[]): number {
  for (let i = 0; i < items.length; i++) target[at++] = items[i];
  return at;
}
