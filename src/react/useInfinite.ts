/** useInfinite: a paginated list, with the next page one call away (docs/useInfinite.md). */

import { useCallback, useMemo, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { warnOnce } from '../base/env.js';
import { describe, setupError } from '../base/errors.js';
import { argsKey } from '../base/json.js';
import type { ArgsOf, ResponseData } from '../store/createCache.js';
import { requestKey, type EndpointLike } from '../store/endpoint.js';
import { listRecord } from '../store/runtime/pages.js';
import { nonErrorThrown } from '../normalize/rootChecks.js';
import { internalsOf } from '../store/Cache.js';
import { useCacheContext } from './CacheProvider.js';
import { useController } from './useController.js';
import { unlessSliceChanged, type ReadEndpoint } from './useResponse.js';
import { useSuspense } from './useSuspense.js';

/** A list endpoint with `paginationField` (a RestEndpoint, or any endpoint shaped like one). */
export type PagedEndpoint = ReadEndpoint & {
  readonly getPage: EndpointLike;
  readonly options: { readonly paginationField?: string; readonly nextPageParam?: (page: any) => unknown };
};

export interface Infinite<T> {
  /** The list with every page loaded so far (what `useSuspense(endpoint, ...args)` reads). */
  data: T;
  /** Fetches the next page and appends it; does nothing while one loads or when there is none. */
  loadMore(): Promise<void>;
  /** Whether the last page loaded names a next one. */
  hasMore: boolean;
  /** True while `loadMore`'s page is in flight. */
  loadingMore: boolean;
  /** The last `loadMore` failure, or a failed refetch of the list (its data stays shown). */
  error: Error | undefined;
}

/**
 * A paginated list: suspends for the first page like `useSuspense`, and returns every page loaded
 * so far with `loadMore()`, `hasMore`, `loadingMore` and `error`. The next page's param comes from
 * the last page loaded: its `next<Field>` member (`nextCursor` for `paginationField: 'cursor'`)
 * or `next`, or the endpoint's `nextPageParam(page)`. A refetch of the list (focus, a poll, an
 * invalidation) fetches every page it holds again, so the list never drops back to one page.
 *
 * @example
 * ```tsx
 * const { data, loadMore, hasMore, loadingMore } = useInfinite(getPosts, { group: 'react' });
 * ```
 * @see docs/useInfinite.md
 */
export function useInfinite<E extends PagedEndpoint>(endpoint: E, ...args: ArgsOf<E>): Infinite<ResponseData<E>>;
export function useInfinite(endpoint: PagedEndpoint, ...args: unknown[]): Infinite<unknown> {
  const cache = useCacheContext('useInfinite');
  const field = endpoint.options?.paginationField;
  if (typeof field !== 'string' || field === '') {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `useInfinite was given ${describe(endpoint)}, which has no paginationField: it cannot tell how to ask for a page.`,
        "Give the list endpoint the param that names a page: new RestEndpoint({ ..., paginationField: 'cursor' }).",
      ],
    );
  }
  const data = useSuspense(endpoint, ...(args as never[])) as unknown;
  const controller = useController();
  const memoKey = argsKey(args);
  // One object per list (cache, endpoint and args): the state below belongs to the list it was
  // made for, so an args change shows none of the previous list's page in flight or failure.
  // The list's keys are computed once per args, not on every store change (useResponse does the same).
  const list = useMemo(() => {
    const reads = internalsOf(cache);
    const keys = { request: requestKey(endpoint, args), memo: memoKey };
    const paging = (endpoint as unknown as EndpointLike).pagination;
    const place = paging?.kind === 'list' ? paging.place(args) : undefined;
    const response = (state: unknown) => reads.response(state, endpoint, args, keys);
    // The next page's param, from the list's record of its pages (pages.ts), else from the
    // list's own response. A primitive, so the hook renders only when it changes.
    const selectNext = unlessSliceChanged(cache, state => {
      const record = place && listRecord(reads.slice(state), place);
      const from = record ?? response(state).data;
      const next = record ? record.next : paging?.next(from);
      if (next === undefined && from !== undefined) cannotTell(endpoint, field);
      return next;
    });
    return { selectNext, selectError: unlessSliceChanged(cache, state => response(state).error) };
    // `args` is represented by its memo key.
  }, [cache, endpoint, field, memoKey]);
  const next = useSelector(list.selectNext);
  // The last loadMore of a list: in flight (no error) or failed; shown only for that list.
  const [page, setPage] = useState<{ of: object; error?: Error } | undefined>(undefined);
  // One page at a time per list, whatever the renders in between: the ref answers at once.
  const inFlight = useRef<object | undefined>(undefined);
  const loadMore = useCallback(async (): Promise<void> => {
    if (next === undefined || next === null || inFlight.current === list) return;
    const params = (args[0] ?? {}) as Record<string, unknown>;
    inFlight.current = list;
    setPage({ of: list });
    let done: { of: object; error?: Error } | undefined;
    try {
      await controller.fetch(endpoint.getPage, { ...params, [field]: next } as never);
    } catch (error) {
      done = { of: list, error: error instanceof Error ? error : nonErrorThrown(error) };
    }
    if (inFlight.current === list) inFlight.current = undefined;
    setPage(current => (current?.of === list ? done : current));
    // `args` is represented by its memo key, and so by `list`.
  }, [controller, endpoint, field, list, next]);
  const listError = useSelector(list.selectError);
  const hasMore = next !== undefined && next !== null;
  const mine = page?.of === list ? page : undefined;
  const error = mine?.error ?? listError;
  const loadingMore = mine !== undefined && mine.error === undefined;
  return useMemo(
    () => ({ data, loadMore, hasMore, loadingMore, error }),
    [data, loadMore, hasMore, loadingMore, error],
  );
}

/** A list whose page names no next page the way the endpoint reads it: said once in development. */
function cannotTell(endpoint: PagedEndpoint, field: string): void {
  if (process.env.NODE_ENV === 'production' || typeof endpoint.options.nextPageParam === 'function') return;
  const named = `next${field.charAt(0).toUpperCase()}${field.slice(1)}`;
  warnOnce(
    `useInfinite cannot tell the page after the last one of ${describe(endpoint)}: its page has neither "${named}" nor "next". Give the endpoint nextPageParam: page => page.<the next ${field}>.`,
  );
}
