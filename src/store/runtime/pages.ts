/**
 * The pages a paginated list holds, recorded beside the list's row (`Pages(<list table>)`, one
 * record per row: `{ pages: ['c2'], next: 'c3' }`) by the same write as the page's rows, so every
 * request of the list finds it, at any lens. The rules: docs/pagination.md, "The list's record of
 * its pages".
 */

import { hasOwn } from '../../base/dict.js';
import { stableStringify } from '../../base/json.js';
import type { CacheState, EndpointMeta } from '../../base/state.js';
import type { ListPlace } from '../../rest/types.js';
import type { EndpointLike } from '../endpoint.js';

/**
 * A list's record of its pages: the params of the pages it holds other than its own answer (in
 * the list's order), and the params of the pages after and before them (`null`: none; absent:
 * unknown). The rest is written only when it is not the default.
 */
export interface ListRecord {
  readonly pages: readonly unknown[];
  readonly next?: unknown;
  readonly previous?: unknown;
  /** Where the list's own answer sits among its pages (absent: first; `null`: dropped for `maxPages`). */
  readonly base?: number | null;
  /** A count of the pages loaded and of the answers that changed the pages held, when not `pages.length`: lenses compare it. */
  readonly loads?: number;
  /** With `maxPages`: each page held, in order, with the refs it brought and the params it named. */
  readonly held?: readonly HeldPage[];
}

/** A page held by a list with `maxPages`: dropped, it takes `refs` out of the list. */
export interface HeldPage {
  readonly refs: readonly unknown[];
  readonly previous?: unknown;
  readonly next?: unknown;
}

/** Stands for the list's own answer among its pages. */
export const BASE: unique symbol = Symbol('base');

/** The pages of `record` in the list's order, its own answer as `BASE`. */
export function sequence(record: ListRecord | undefined): unknown[] {
  const pages = [...(record?.pages ?? [])];
  const base = record?.base;
  if (base !== null) pages.splice(base ?? 0, 0, BASE);
  return pages;
}

/** Whether `a` and `b` are the same page param (`null`, absent and the list's own answer name none). */
export function sameParam(a: unknown, b: unknown): boolean {
  return a != null && b != null && a !== BASE && b !== BASE && stableStringify(a) === stableStringify(b);
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
 * `endpoint` asking for its list's first page alone: a refetch of it replaces the list with that
 * page, whatever pages the list holds (docs/pagination.md, "Taking only the first page").
 */
export function firstPageOnly<E extends EndpointLike>(endpoint: E): E {
  const paging = endpoint.pagination;
  if (paging?.kind !== 'list') return endpoint;
  return Object.create(endpoint, { pagination: { value: { ...paging, firstOnly: true } } }) as E;
}

/** The list's count of loads (what each lens's answer holds a count of: `meta.pages`). */
export function loadsOf(record: ListRecord | undefined): number {
  return record?.loads ?? record?.pages.length ?? 0;
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
  return loadsOf(listRecord(state, paging.place(args))) > (meta.pages ?? 0);
}

export function metaOf(state: CacheState, key: string): EndpointMeta | undefined {
  return hasOwn(state.meta, key) ? state.meta[key] : undefined;
}
