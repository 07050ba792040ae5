/**
 * The pages a paginated list holds (docs/pagination.md, "Refetching a list that holds pages").
 *
 * The record lives in the state, beside the list's response: `meta[listKey].pages` lists the page
 * params of the pages appended to the list, in the order they were, so it survives a server
 * render's hydration and a persisted store. Three rules keep it true:
 *
 * - a page's answer that is appended to its list adds its param (`withHeldPages`, in the page's
 *   own write);
 * - an answer of the list itself that replaces the list row sets it to the pages that answer
 *   brought (none for a plain first page); one that leaves the row (a page was appended after
 *   it started) keeps it. Every other write of `meta[listKey]` (an error, an invalidation) keeps
 *   it as it was;
 * - a request of the list whose key holds pages fetches the first page and then each held page,
 *   in order, and answers with one response of the list holding all their items
 *   (`pagedRunner`), which is written as one action: if any page fails, only the error is
 *   written.
 */

import { hasOwn } from '../../base/dict.js';
import { stableStringify } from '../../base/json.js';
import type { Patch } from '../../base/patch.js';
import type { CacheState, EndpointMeta } from '../../base/state.js';
import { toJsonValue } from '../../base/checkRow.js';
import type { PagePagination } from '../../rest/types.js';
import { continuesList } from '../../schema/refs.js';
import type { EndpointLike } from '../endpoint.js';
import type { Resolved, ResolveInput } from '../types.js';

type Runner = (args: readonly unknown[], signal: AbortSignal) => Promise<unknown>;

/** The page params each joined response holds, from the runner that made it to the write that stores it. */
const joinedPages = new WeakMap<object, readonly unknown[]>();

/** The pages `meta` records, as a part to spread into the meta record that replaces it. */
export function heldPagesOf(meta: EndpointMeta | undefined): { pages?: readonly unknown[] } {
  return meta?.pages === undefined ? {} : { pages: meta.pages };
}

/**
 * The request of `endpoint`: `run` itself, unless the endpoint is a paginated list whose key
 * holds pages when the request starts (`held()`). Then the first page, and each held page in
 * order, joined into one response of the list. Pages that the list comes to hold while these
 * are fetched (a "load more" answered meanwhile) are fetched too, before the response is made.
 */
export function pagedRunner(endpoint: EndpointLike, run: Runner, held: () => readonly unknown[] | undefined): Runner {
  const paging = endpoint.pagination;
  if (paging?.kind !== 'list') return run;
  return async (args, signal) => {
    let next = held() ?? [];
    if (next.length === 0) return run(args, signal);
    const responses = [await run(args, signal)];
    const fetched: unknown[] = [];
    const asked = new Set<string>();
    while (next.length > 0) {
      for (const param of next) {
        asked.add(stableStringify(param));
        signal.throwIfAborted();
        responses.push(await paging.requestPage(args, param, signal));
        fetched.push(param);
      }
      next = (held() ?? []).filter(param => !asked.has(stableStringify(param)));
    }
    const joined = paging.combine(responses) as object;
    joinedPages.set(joined, fetched);
    return joined;
  };
}

/**
 * `resolved` (the write of `input`, computed against `state`) with the list's record of its pages
 * kept true: a page appended adds its param; the list's own answer sets or keeps them.
 */
export function withHeldPages(
  state: CacheState,
  endpoint: EndpointLike,
  input: ResolveInput,
  resolved: Resolved | undefined,
): Resolved | undefined {
  if (resolved === undefined) return resolved;
  const paging = endpoint.pagination;
  if (paging?.kind === 'page')
    return resolved.error === undefined ? recordPage(state, paging, input, resolved) : resolved;
  const previous = metaOf(state, resolved.key);
  if (paging === undefined && previous?.pages === undefined) return resolved;
  let pages = previous?.pages;
  if (paging !== undefined && resolved.error === undefined) {
    const { table, row } = paging.place(input.args);
    const rowMeta = state.entitiesMeta[table]?.[row];
    // The list row is replaced unless it was written by a request that started later (the
    // Collection's rule): then it holds what this answer brought, else what it held.
    if (rowMeta === undefined || input.fetchedAt >= rowMeta.fetchedAt) pages = joinedOf(input.response);
  }
  return withMetaPages(resolved, resolved.key, pages);
}

function recordPage(state: CacheState, paging: PagePagination, input: ResolveInput, resolved: Resolved): Resolved {
  const place = paging.place(input.args);
  const list = metaOf(state, place.key);
  // Without the list's own response there is no record to keep (and nothing a refetch would fetch).
  if (list === undefined || !continuesList(state.entities[place.table]?.[place.row], list, input.fetchedAt))
    return resolved;
  const param = toJsonValue(paging.param(input.args), 'The page param');
  const held = list.pages ?? [];
  const text = stableStringify(param);
  if (held.some(other => stableStringify(other) === text)) return resolved;
  const path = ['meta', place.key];
  const next: EndpointMeta = { ...list, pages: [...held, param] };
  return {
    ...resolved,
    patches: [...resolved.patches, { op: 'replace', path, value: next }],
    inversePatches: [{ op: 'replace', path, value: list }, ...resolved.inversePatches],
  };
}

/** `resolved` with the meta record it writes for `key` (if it writes one) holding `pages`. */
function withMetaPages(resolved: Resolved, key: string, pages: readonly unknown[] | undefined): Resolved {
  const index = resolved.patches.findIndex(isMetaOf(key));
  if (index < 0) return resolved;
  const patch = resolved.patches[index]!;
  const { pages: _written, ...value } = patch.value as EndpointMeta;
  const patches = resolved.patches.slice();
  patches[index] = { ...patch, value: pages === undefined || pages.length === 0 ? value : { ...value, pages } };
  return { ...resolved, patches };
}

function isMetaOf(key: string): (patch: Patch) => boolean {
  return patch => patch.op !== 'remove' && patch.path.length === 2 && patch.path[0] === 'meta' && patch.path[1] === key;
}

function metaOf(state: CacheState, key: string): EndpointMeta | undefined {
  return hasOwn(state.meta, key) ? state.meta[key] : undefined;
}

/** The pages a response of the list holds: those the runner joined into it, else none (a first page alone). */
function joinedOf(response: unknown): readonly unknown[] | undefined {
  return typeof response === 'object' && response !== null ? joinedPages.get(response) : undefined;
}
