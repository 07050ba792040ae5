/**
 * The pages a paginated list holds, recorded beside the list's row (`Pages(<list table>)`, one
 * record per row: `{ pages: ['c2'], next: 'c3' }`) by the same write as the page's rows, so every
 * request of the list finds it, at any lens. The rules: docs/pagination.md, "The list's record of
 * its pages".
 */

import { createDict, hasOwn } from '../../base/dict.js';
import { jsonEqual, stableStringify } from '../../base/json.js';
import type { CacheState, EndpointMeta, Row } from '../../base/state.js';
import { toJsonValue } from '../../base/checkRow.js';
import { PatchList } from '../../normalize/PatchList.js';
import type { ListPlace } from '../../rest/types.js';
import { continuesList } from '../../schema/refs.js';
import type { EndpointLike } from '../endpoint.js';
import type { JoinedPages, Resolved, ResolveInput } from '../types.js';

type Runner = (args: readonly unknown[], signal: AbortSignal) => Promise<unknown>;

/** A list's record of its pages: their params after the first page, and the next page's (`null`: none; absent: unknown). */
export interface ListRecord {
  readonly pages: readonly unknown[];
  readonly next?: unknown;
}

/** The table of the records of the lists stored in `table`. */
export function pagesTable(table: string): string {
  return `Pages(${table})`;
}

/** The record of the list at `place`, if it has one. */
export function listRecord(state: CacheState, place: Omit<ListPlace, 'key'>): ListRecord | undefined {
  return state.entities[pagesTable(place.table)]?.[place.row] as ListRecord | undefined;
}

/**
 * The request of `endpoint`: `run` itself, unless the endpoint is a paginated list that holds
 * pages when the request starts (`held`). Then the first page, and each held page in order (sent
 * as the store sends any endpoint: `runnerOf`, with its request options), joined into one
 * response of the list, and told to `joined`. Pages that the list comes to hold
 * while these are fetched (a "load more" answered meanwhile) are fetched too.
 */
export function pagedRunner(
  endpoint: EndpointLike,
  run: Runner,
  held: (place: ListPlace) => readonly unknown[] | undefined,
  joined: (pages: JoinedPages) => void,
  runnerOf: (endpoint: EndpointLike) => Runner,
): Runner {
  const paging = endpoint.pagination;
  if (paging?.kind !== 'list') return run;
  return async (args, signal) => {
    const place = paging.place(args);
    let next = held(place) ?? [];
    if (next.length === 0) return run(args, signal);
    const responses = [await run(args, signal)];
    const params: unknown[] = [];
    const asked = new Set<string>();
    while (next.length > 0) {
      for (const param of next) {
        asked.add(stableStringify(param));
        signal.throwIfAborted();
        const [page, pageArgs] = paging.pageRequest(args, param);
        responses.push(await runnerOf(page)(pageArgs, signal));
        params.push(param);
      }
      next = (held(place) ?? []).filter(param => !asked.has(stableStringify(param)));
    }
    const response = paging.combine(responses);
    joined({ params, last: responses[responses.length - 1] });
    return response;
  };
}

/**
 * `resolved` (the write of `input`, computed against `state`) with the list's record of its
 * pages kept true, in the same write: a page appended adds its param; the list's own answer sets
 * the record or keeps it.
 */
export function withHeldPages(
  state: CacheState,
  endpoint: EndpointLike,
  input: ResolveInput,
  resolved: Resolved | undefined,
): Resolved | undefined {
  const paging = endpoint.pagination;
  if (resolved === undefined || paging === undefined || resolved.error !== undefined) return resolved;
  const place = paging.place(input.args);
  const previous = listRecord(state, place);
  const listMeta = metaOf(state, place.key);
  const list = new PatchList();
  let pages: readonly unknown[] | undefined;
  let last = input.response;
  if (paging.kind === 'page') {
    // Recorded when the page is appended (the rule of CollectionPage): a page that started before
    // its list was replaced continues a list that is gone.
    const row = state.entities[place.table]?.[place.row];
    if (!continuesList(row, listMeta, input.fetchedAt)) return resolved;
    const param = toJsonValue(paging.param(input.args), 'The page param');
    const held = previous?.pages ?? [];
    const text = stableStringify(param);
    const at = held.findIndex(other => stableStringify(other) === text);
    // A page held already, loaded again, keeps its place; only the last one names the next page.
    if (at >= 0 && at < held.length - 1) return resolved;
    pages = at < 0 ? [...held, param] : held;
    // The list's answer at this page's lens holds this page too if it held every page before; the
    // answers at other lenses do not, and are fetched again when read.
    if (at < 0 && listMeta && (listMeta.pages ?? 0) === held.length)
      list.set(['meta', place.key], { ...listMeta, pages: pages.length }, listMeta);
  } else {
    const rowMeta = state.entitiesMeta[place.table]?.[place.row];
    // The list row is replaced unless a request that started later wrote it (the Collection's
    // rule): then it keeps the pages it holds, and this answer those its key held.
    const replaced = !rowMeta || input.fetchedAt >= rowMeta.fetchedAt;
    pages = input.pages?.params ?? [];
    const count = replaced ? pages.length : Math.max(pages.length, listMeta?.pages ?? 0);
    if (count && resolved.meta) list.set(['meta', place.key], { ...resolved.meta, pages: count }, resolved.meta);
    if (input.pages) last = input.pages.last;
    if (!replaced) last = pages = undefined;
  }
  const next = pages && paging.next(last);
  const record: ListRecord | undefined =
    pages &&
    Object.freeze(
      next === undefined
        ? { pages: Object.freeze(pages) }
        : { pages: Object.freeze(pages), next: toJsonValue(next, 'The next page param') },
    );
  if (record && (previous === undefined || !jsonEqual(previous, record))) {
    const table = pagesTable(place.table);
    const stored = state.entities[table];
    if (stored === undefined) {
      const rows = createDict<Row>();
      rows[place.row] = record;
      list.set(['entities', table], Object.freeze(rows), undefined);
    } else list.set(['entities', table, place.row], record, previous);
  }
  return { ...resolved, ...list.written(resolved) };
}

/**
 * Whether the answer stored for a paginated list at `args` lacks pages its list holds: pages
 * loaded at another lens since it was fetched. Such an answer is read as invalid, so it is fetched
 * again with every page (docs/pagination.md, "A list read at several lenses").
 */
export function lacksPages(
  state: CacheState,
  endpoint: EndpointLike,
  args: readonly unknown[],
  meta: EndpointMeta,
): boolean {
  const paging = endpoint.pagination;
  if (paging?.kind !== 'list' || meta.error !== undefined) return false;
  const held = listRecord(state, paging.place(args))?.pages.length ?? 0;
  return held > (meta.pages ?? 0);
}

function metaOf(state: CacheState, key: string): EndpointMeta | undefined {
  return hasOwn(state.meta, key) ? state.meta[key] : undefined;
}
