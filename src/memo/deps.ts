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

import { nextSerial } from '../base/serial.js';
import type { Entities, LensFn } from '../denormalize/PlainRead.js';

export type { Entities };

/** Marks a lens dependency triple: `LENS, lensFn, the lens value the value was built under`. */
export const LENS: unique symbol = Symbol('lenscache.lens');
/** Marks a dependency on the whole record of an entity a cycle closed onto. */
export const VIA: unique symbol = Symbol('lenscache.via');
/** Marks a dependency on the whole record of a finished value, named instead of copied. */
export const CHILD: unique symbol = Symbol('lenscache.child');

/**
 * What CHILD and VIA triples name: a value's entry, whose record is `deps`. Records name each
 * other as a graph, not a tree (the records of a user and of the post list that holds ten of
 * that user's posts both name the user's record; a cycle's records name each other): every walk
 * over them marks each named record it visits with a number of its own (`mark`) and visits it
 * once, so a walk is linear in the distinct records it reaches, and ends.
 */
export interface Recorded {
  readonly deps: readonly unknown[];
  /**
   * The `tableId` of the map of tables (the state's `entities`) this record was last found valid
   * in, by a read that built it or found it valid at its top; 0 for none.
   */
  validIn: number;
  /** The number of the last walk that visited this record. */
  mark: number;
  /** The serial of the last read that built this record's value or found it valid (ReadWalk). */
  read: number;
}

/** True when a walk marked `mark` has visited `named` already; marks it visited otherwise. */
function visited(named: Recorded, mark: number): boolean {
  if (named.mark === mark) return true;
  named.mark = mark;
  return false;
}

/**
 * The number of the walk that visits `named` (the walk's `mark`, taken here when the top record
 * meets its first name), or 0 when this walk has visited `named` already. The names of the top
 * record (`top`) are not marked, the names below it are (see depsValid).
 */
function walkMark(named: Recorded, top: boolean, mark: number): number {
  if (!top) return visited(named, mark) ? 0 : mark;
  if (mark === 0) return nextSerial();
  return named.mark === mark ? 0 : mark;
}

/**
 * What changed since the state named `since` (a `tableId` of a map of tables): per table, `null`
 * when the table is the same object, or the keys written since. Tables not listed may have changed
 * in any way. A record found valid in that state (`validIn === since`) is then valid now unless a
 * row it read is at a key written since: its other rows are not looked up (memo/Reader.ts).
 */
export interface Changes {
  readonly since: number;
  readonly tables: ReadonlyMap<string, ReadonlySet<string> | null>;
}

/** Gives the current read's value of a lens function. */
export type LensOf = (lens: LensFn) => unknown;

/**
 * True when every row dependency is unchanged and, given `lensOf`, every lens gives the value the
 * value was built under. Without `lensOf` lens dependencies are not looked at (a view found by its
 * lens values has them right already), except in records named through VIA, checked with
 * `viaLensOf`: the entity a cycle closed onto may read lenses after the view was keyed.
 *
 * Named records are visited once per walk, marked with the walk's number `mark` (taken when the
 * first is met). The records the top one names are not marked (a list's record names a thousand
 * posts, each once): a walk is still linear, as each is met there once, or below, marked. A named
 * record the read `read` built or found valid already (the state does not change within a read)
 * is not checked again. Visiting a record once is enough whatever the lens
 * arguments: a record met without lens checks is reached from the view's own record, whose key
 * holds every lens it reaches.
 */
export function depsValid(
  deps: readonly unknown[],
  entities: Entities,
  lensOf?: LensOf,
  viaLensOf?: LensOf,
  read = 0,
  mark = 0,
  from = 0,
  changes?: Changes,
): boolean {
  const top = mark === 0;
  for (let i = from; i < deps.length; i += 3) {
    const table = deps[i];
    if (table === CHILD || table === VIA) {
      const named = deps[i + 1] as Recorded;
      if (named.read === read || named.deps === deps) continue;
      const next = walkMark(named, top, mark);
      if (next === 0) continue;
      mark = next;
      const check = table === VIA ? (lensOf ?? viaLensOf) : lensOf;
      const since = changes !== undefined && named.validIn === changes.since ? changes : undefined;
      if (!depsValid(named.deps, entities, check, viaLensOf, read, mark, 0, since)) return false;
      // A record of one row (a user many values hold) stays valid for the rest of this read: the
      // state does not change within one. Not one that names others: a walk treats a record it is
      // still inside as valid (a cycle through names), so such a result is only known at the end.
      if (read !== 0 && named.deps.length === 3) named.read = read;
    } else if (table === LENS) {
      if (lensOf && !Object.is(lensOf(deps[i + 1] as LensFn), deps[i + 2])) return false;
    } else {
      if (changes !== undefined) {
        // Valid in the state `changes` starts from: only a row at a key written since can differ.
        const written = changes.tables.get(table as string);
        if (written === null || (written !== undefined && !written.has(deps[i + 1] as string))) continue;
      }
      if (entities[table as string]?.[deps[i + 1] as string] !== deps[i + 2]) return false;
    }
  }
  return true;
}

/**
 * True as soon as `test(a, b, c)` is true for a row triple (`table, key, row`) or a lens triple
 * (`LENS, lensFn, value`) of `deps`, or of a record it names (VIA, CHILD), each visited once.
 * `mark` is the number of the walk this one is part of, if any.
 */
function someTriple(
  deps: readonly unknown[],
  test: (a: unknown, b: unknown, c: unknown) => boolean,
  mark = 0,
): boolean {
  const top = mark === 0;
  for (let i = 0; i < deps.length; i += 3) {
    const a = deps[i];
    if (a === VIA || a === CHILD) {
      const named = deps[i + 1] as Recorded;
      if (named.deps === deps) continue;
      const next = walkMark(named, top, mark);
      if (next === 0) continue;
      mark = next;
      if (someTriple(named.deps, test, mark)) return true;
    } else if (test(a, deps[i + 1], deps[i + 2])) {
      return true;
    }
  }
  return false;
}

/** True as soon as `test` is true for a row `deps` read, itself or through the records it names. */
function someRow(
  deps: readonly unknown[],
  test: (table: string, key: string, row: unknown) => boolean,
  mark?: number,
): boolean {
  return someTriple(deps, (table, key, row) => table !== LENS && test(table as string, key as string, row), mark);
}

/** The distinct tables of the rows `deps` read, itself or through the records it names. */
export function tablesIn(deps: readonly unknown[]): string[] {
  const tables: string[] = [];
  someRow(deps, table => {
    if (!tables.includes(table)) tables.push(table);
    return false;
  });
  return tables;
}

/** The distinct lens functions `deps` read (itself or through the records it names), in the order first read. */
export function lensesIn(deps: readonly unknown[]): LensFn[] {
  const lenses: LensFn[] = [];
  someTriple(deps, (a, lens) => {
    if (a === LENS && !lenses.includes(lens as LensFn)) lenses.push(lens as LensFn);
    return false;
  });
  return lenses;
}

/** The value `lens` had when `deps` was recorded (looking through VIA and CHILD too); `undefined` if it was not read. */
export function lensValueIn(deps: readonly unknown[], lens: LensFn): unknown {
  let found: unknown;
  someTriple(deps, (a, b, value) => a === LENS && b === lens && ((found = value), true));
  return found;
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
  children: readonly Recorded[],
  test: (table: string, key: string, row: unknown) => boolean,
): boolean {
  const mark = nextSerial();
  if (someRow(deps, test, mark)) return true;
  for (const child of children) if (!visited(child, mark) && someRow(child.deps, test, mark)) return true;
  return false;
}

/** Writes `items` into `target` from index `at`; returns the index after them. */
export function writeAll(target: unknown[], at: number, items: readonly unknown[]): number {
  for (let i = 0; i < items.length; i++) target[at++] = items[i];
  return at;
}
