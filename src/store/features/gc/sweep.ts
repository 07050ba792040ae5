/**
 * One garbage-collection sweep as patches (docs/gc.md): given the request keys to drop and the
 * reads to keep, the patches that remove those responses (result, meta and error) and every row
 * no kept read reaches, with their inverse patches. Pure: it reads the slice and writes nothing.
 */

import type { Dict } from '../../../base/dict.js';
import { warnOnce } from '../../../base/env.js';
import { describe } from '../../../base/errors.js';
import type { Patch, WriteMeta } from '../../../base/patch.js';
import type { CacheState, Row } from '../../../base/state.js';
import { Reached } from './reach.js';
import { ANY_TABLE, ownerTable } from './writable.js';

/** A read a sweep keeps: its schema, its args, and the stored result it reads (if any). */
export interface KeptRead {
  readonly schema: unknown;
  readonly args: readonly unknown[];
  readonly stored?: unknown;
}

/** A read in flight: when it started, and the tables its answer can write (`ANY_TABLE`: unknown). */
export interface InFlightRead {
  readonly start: number;
  readonly tables: ReadonlySet<string>;
}

export interface SweepPlan {
  /** Request keys whose response, meta and error go. */
  readonly dropKeys: readonly string[];
  /** The reads whose rows stay. */
  readonly kept: readonly KeptRead[];
  /** A kept response whose read is unknown (restored state, never read here): no row may go. */
  readonly opaque: boolean;
  /**
   * The reads in flight: a row written after one started stays in the tables it can write, since
   * its older answer would write the row back stale.
   */
  readonly reading: readonly InFlightRead[];
  /**
   * The state readers see, pending optimistic guesses written over `state` (which is the
   * confirmed state). Rows a guess shows differently stay, and so do rows a kept read reaches
   * there, until the guesses settle.
   */
  readonly visible?: CacheState;
  /** Rows written less than `gcTime` ms before `now` stay. */
  readonly now: number;
  readonly gcTime: number;
}

export interface Sweep {
  patches: Patch[];
  inversePatches: Patch[];
  /** How many responses and rows the patches remove. */
  requests: number;
  rows: number;
}

export function planSweep(state: CacheState, plan: SweepPlan): Sweep {
  const sweep: Sweep = { patches: [], inversePatches: [], requests: plan.dropKeys.length, rows: 0 };
  dropKeys(sweep, state, 'endpoints', plan.dropKeys);
  dropKeys(sweep, state, 'meta', plan.dropKeys);
  if (plan.opaque) return sweep;
  const guessed = plan.visible !== undefined && plan.visible !== state ? plan.visible : undefined;
  const reached = new Reached();
  // Walked again over what the guesses show, from scratch: a guessed row may sit below rows
  // the first walk has already seen.
  const reachedShown = guessed ? new Reached() : undefined;
  try {
    for (const read of plan.kept) reached.walk(state.entities, read.schema, read.args, read.stored);
    if (guessed)
      for (const read of plan.kept) reachedShown!.walk(guessed.entities, read.schema, read.args, read.stored);
  } catch (error) {
    // A read that throws (a deserializer or an Entity constructor of the app's) cannot tell what
    // it reaches: no row goes this time, and the failure is shown once.
    if (process.env.NODE_ENV !== 'production')
      warnOnce(`A garbage-collection sweep kept every row: reading a kept response threw ${describe(error)}.`);
    return sweep;
  }
  const young = (meta: WriteMeta | undefined): boolean => meta !== undefined && plan.now - meta.date < plan.gcTime;
  /** The earliest start of a read in flight that can write `table` (Infinity: none). */
  const firstStart = (table: string): number => {
    const owner = ownerTable(table);
    let first = Infinity;
    for (const read of plan.reading)
      if (read.start < first && (read.tables === ANY_TABLE || read.tables.has(owner))) first = read.start;
    return first;
  };
  // Entity, collection and cell tables first: index entries follow the rows they name.
  const dropped = new Map<string, Set<string>>();
  const tables = Object.keys(state.entities).sort((a, b) => kindOf(a) - kindOf(b));
  for (const table of tables) {
    const rows = state.entities[table] ?? {};
    const metas = state.entitiesMeta[table] ?? {};
    const kind = kindOf(table);
    const drop = new Set<string>();
    const shownRows = guessed?.entities[table];
    const shownMetas = guessed?.entitiesMeta[table];
    const start = firstStart(table);
    // A row without meta has no known write time: it stays while such a read is in flight.
    const newerThanInFlight = (meta: WriteMeta | undefined): boolean => start < (meta?.fetchedAt ?? Infinity);
    for (const key of unionKeys(rows, metas)) {
      const row = rows[key];
      const meta = metas[key];
      // A list's record of its pages (runtime/pages.ts) stays exactly while its list does.
      if (kind === PAGES) {
        if (!stays(state.entities, dropped, table.slice(6, -1), key)) drop.add(key);
        continue;
      }
      if (reached.has(table, key) || reachedShown?.has(table, key) || young(meta) || newerThanInFlight(meta)) continue;
      // A pending guess covers this row: its confirmed value comes back when the guess goes.
      if (guessed && (shownRows?.[key] !== row || shownMetas?.[key] !== meta)) continue;
      if (kind === INDEX && indexOwnerKept(table, row, state.entities, dropped)) continue;
      drop.add(key);
    }
    if (drop.size === 0) continue;
    dropped.set(table, drop);
    if (kind !== PAGES) sweep.rows += [...drop].filter(key => key in rows).length;
    dropRows(sweep, state.entities, 'entities', table, drop);
    dropRows(sweep, state.entitiesMeta, 'entitiesMeta', table, drop);
  }
  return sweep;
}

const ROWS = 0;
const INDEX = 1;
const PAGES = 2;

/**
 * Lists' records of their pages (`Pages(<list table>)`) come last: they follow their lists.
 * Scalar cells (`Scalar(<key>)`) are rows like any other: a cell stays when a kept read reads it
 * (under its lens) or it was written within gcTime, so the cells of lenses nobody reads any more
 * go even while their entity stays.
 */
function kindOf(table: string): number {
  if (table.startsWith('Pages(')) return PAGES;
  return ownerTable(table) === table ? ROWS : INDEX;
}

function unionKeys(a: object, b: object): Set<string> {
  return new Set([...Object.keys(a), ...Object.keys(b)]);
}

/** True while a row stays in `table` (it is there and this sweep does not drop it). */
function stays(entities: CacheState['entities'], dropped: Map<string, Set<string>>, table: string, key: string) {
  const row = entities[table]?.[key];
  return row !== undefined && row !== null && dropped.get(table)?.has(key) !== true;
}

/** An index entry (`<entityKey>@<field>`: the pks holding a value) stays while one of its rows does. */
function indexOwnerKept(
  table: string,
  pks: Row | undefined,
  entities: CacheState['entities'],
  dropped: Map<string, Set<string>>,
): boolean {
  if (!Array.isArray(pks)) return false;
  const owner = ownerTable(table);
  return pks.some(pk => stays(entities, dropped, owner, String(pk)));
}

function dropKeys(sweep: Sweep, state: CacheState, map: 'endpoints' | 'meta', keys: readonly string[]): void {
  const current = state[map] as Dict<unknown>;
  const present = keys.filter(key => key in current);
  if (present.length === 0) return;
  replaceOrRemove(sweep, [map], current, new Set(present));
}

function dropRows(sweep: Sweep, maps: Dict<Dict<unknown>>, map: string, table: string, drop: Set<string>): void {
  const current = maps[table];
  if (!current) return;
  const present = new Set([...drop].filter(key => key in current));
  if (present.size > 0) replaceOrRemove(sweep, [map, table], current, present);
}

/**
 * Removes `drop` from the map at `path`: one patch per key, or, when more than half of the map
 * goes, one patch replacing the map (as the writes do for tables, docs/architecture.md "Writes").
 */
function replaceOrRemove(sweep: Sweep, path: string[], current: Dict<unknown>, drop: Set<string>): void {
  const keys = Object.keys(current);
  if (drop.size * 2 > keys.length) {
    const next = Object.create(null) as Dict<unknown>;
    for (const key of keys) if (!drop.has(key)) next[key] = current[key];
    sweep.patches.push({ op: 'replace', path, value: next });
    sweep.inversePatches.push({ op: 'replace', path, value: current });
    return;
  }
  for (const key of drop) {
    sweep.patches.push({ op: 'remove', path: [...path, key] });
    sweep.inversePatches.push({ op: 'add', path: [...path, key], value: current[key] });
  }
}
