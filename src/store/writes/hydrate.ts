/**
 * `cache.hydrate(state)`: state from outside the store (a server render's slice, or the part of
 * one a streamed render sends with a Suspense boundary) merged in under the ordering rules
 * (docs/server-rendering.md). A response or a row is taken with its meta when the store lacks
 * it, or holds it from an earlier start; what the store holds as new or newer stays. Every value
 * is checked as a response's rows are (plain JSON, no cycles, stamps a clock can count from): a
 * malformed or hostile one is UNEXPECTED_INPUT, and nothing is written.
 */

import { toJsonValue } from '../../base/checkRow.js';
import { type DevText, describe, inputError } from '../../base/errors.js';
import { createDict, isPlainRecord } from '../../base/dict.js';
import type { CacheState } from '../../base/state.js';
import { PatchList, type Written } from '../../normalize/PatchList.js';

/** How far ahead of the clock a hydrated stamp may be: a day (a server's clock may run ahead). */
const STAMP_AHEAD = 86_400_000;

/**
 * The write that merges `incoming` into `state`: only what is newer than what the state holds;
 * `start` is the latest stamp it takes, which the store's clock moves past (the next request the
 * store starts is newer than what it took, whatever the server's clock said).
 */
export function computeHydrate(state: CacheState, incoming: unknown): Written & { start: number } {
  const part = recordOf(incoming, 'the state');
  const list = new PatchList();
  let start = -Infinity;
  const taken = (meta: { fetchedAt: number; sent?: unknown }): void => {
    start = Math.max(start, meta.fetchedAt, typeof meta.sent === 'number' ? meta.sent : -Infinity);
  };
  // Responses: the result with its meta, taken together.
  const metas = recordOf(part.meta ?? {}, 'meta');
  const results = recordOf(part.endpoints ?? {}, 'endpoints');
  for (const key of Object.keys(metas)) {
    const meta = metaOf(metas[key], `meta["${key}"]`);
    const mine = state.meta[key];
    if (mine && !(meta.fetchedAt > mine.fetchedAt)) continue;
    list.set(['meta', key], meta, mine);
    taken(meta);
    const result = results[key];
    if (result === undefined) list.remove(['endpoints', key], state.endpoints[key]);
    else list.set(['endpoints', key], toJsonValue(result, `endpoints["${key}"]`), state.endpoints[key]);
  }
  // Rows: each with its meta; a table the store lacks is added whole.
  const tables = recordOf(part.entities ?? {}, 'entities');
  const tableMetas = recordOf(part.entitiesMeta ?? {}, 'entitiesMeta');
  for (const table of Object.keys(tables)) {
    const rows = recordOf(tables[table], `entities["${table}"]`);
    const rowMetas = recordOf(tableMetas[table] ?? {}, `entitiesMeta["${table}"]`);
    const mine = state.entities[table];
    const mineMetas = state.entitiesMeta[table];
    const added = createDict<unknown>();
    const addedMetas = createDict<unknown>();
    for (const pk of Object.keys(rows)) {
      const where = `entities["${table}"]["${pk}"]`;
      const meta = rowMetas[pk] === undefined ? undefined : metaOf(rowMetas[pk], `entitiesMeta["${table}"]["${pk}"]`);
      const mineMeta = mineMetas?.[pk];
      if (mine?.[pk] !== undefined && !(meta && (!mineMeta || meta.fetchedAt > mineMeta.fetchedAt))) continue;
      const row = rows[pk] === null ? null : toJsonValue(recordOrList(rows[pk], where), where);
      if (!mine) added[pk] = row;
      else list.set(['entities', table, pk], row, mine[pk]);
      if (!meta) continue;
      taken(meta);
      if (!mineMetas) addedMetas[pk] = meta;
      else list.set(['entitiesMeta', table, pk], meta, mineMetas[pk]);
    }
    if (!mine && Object.keys(added).length > 0) list.set(['entities', table], added, undefined);
    if (!mineMetas && Object.keys(addedMetas).length > 0) list.set(['entitiesMeta', table], addedMetas, undefined);
  }
  return { ...list.written(), start };
}

/** `value` as an object of the state's shape, or UNEXPECTED_INPUT naming `where`. */
function recordOf(value: unknown, where: string): Record<string, any> {
  if (isPlainRecord(value)) return value;
  throw refused(process.env.NODE_ENV !== 'production' && `${where} is ${describe(value)}, not an object`);
}

/** A row: an object (an entity, a cell) or a list (a collection). */
function recordOrList(value: unknown, where: string): unknown {
  return Array.isArray(value) ? value : recordOf(value, where);
}

/** A meta with stamps a clock can count from (safe integers, at most a day ahead), checked and copied. */
function metaOf(value: unknown, where: string): { fetchedAt: number } & Record<string, unknown> {
  const meta = toJsonValue(recordOf(value, where), where) as { fetchedAt: number } & Record<string, unknown>;
  for (const name of ['fetchedAt', 'date', 'expiresAt'] as const) {
    const stamp = meta[name];
    const fine = typeof stamp === 'number' && Math.abs(stamp) <= Number.MAX_SAFE_INTEGER;
    if (!fine || (name !== 'expiresAt' && stamp > Date.now() + STAMP_AHEAD))
      throw refused(
        process.env.NODE_ENV !== 'production' &&
          `${where}.${name} is ${describe(stamp)}: a stamp is a number of milliseconds within Number.MAX_SAFE_INTEGER, at most a day ahead of the clock`,
      );
  }
  return meta;
}

function refused(what: DevText): Error {
  return inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `cache.hydrate was given state it cannot merge: ${what as string}. Nothing was written.`,
      'Pass the slice of a cache (store.getState()[cache.reducerPath]) as the server serialized it, or the parts serializeState and the streamed render send.',
    ],
  );
}
