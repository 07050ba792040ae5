/** useInfinite: a paginated list, with the next page one call away (docs/useInfinite.md). */

import { useCallback, useMemo, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { warnOnce } from '../base/env.js';
import { describe, setupError } from '../base/errors.js';
import { argsKey } from '../base/json.js';
import type { ArgsOf, ResponseData } from '../store/createCache.js';
import { requestKey, type EndpointLike } from '../store/endpoint.js';
import { firstPageOnly, listRecord } from '../store/runtime/pages.js';
import { nonErrorThrown } from '../normalize/rootChecks.js';
import { internalsOf } from '../store/Cache.js';
import { useCacheContext } from './CacheProvider.js';
import { useController } from './useController.js';
import { unlessSliceChanged, type ReadEndpoint } from './useResponse.js';
import { useSuspense } from './useSuspense.js';

/** A list endpoint with `paginationField` (a RestEndpoint, or any endpoint shaped like one). */
export type PagedEndpoint = ReadEndpoint & {
  readonly getPage: EndpointLike;
  readonly options: {
    readonly paginationField?: string;
    readonly nextPageParam?: (page: any) => unknown;
    readonly previousPageParam?: (page: any) => unknown;
  };
};

export interface Infinite<T> {
  /** The list with every page loaded so far (what `useSuspense(endpoint, ...args)` reads). */
  data: T;
  /** Fetches the next page and appends it; does nothing while a page loads or when there is none. */
  loadMore(): Promise<void>;
  /** Whether the last page held names a next one. */
  hasMore: boolean;
  /** True while `loadMore`'s page is in flight. */
  loadingMore: boolean;
  /** Fetches the page before the first one held and puts it first; does nothing while a page loads or when there is none. */
  loadPrevious(): Promise<void>;
  /** Whether the first page held names a page before it. */
  hasPrevious: boolean;
  /** True while `loadPrevious`'s page is in flight. */
  loadingPrevious: boolean;
  /**
   * Fetches the list again: every page it holds, or with `{ firstPageOnly: true }` its first page
   * alone, which then replaces the list. Never rejects: a failure is `error`.
   */
  refetch(options?: { firstPageOnly?: boolean }): Promise<void>;
  /** The last `loadMore` or `loadPrevious` failure, or a failed refetch of the list (its data stays shown). */
  error: Error | undefined;
}

/**
 * A paginated list: suspends for the first page like `useSuspense`, and returns every page loaded
 * so far with `loadMore()`, `hasMore`, `loadPrevious()`, `hasPrevious`, `refetch()` and `error`.
 * The params of the pages around those held are the list's (recorded from the answers that
 * brought its first and last pages: their `next<Field>` / `previous<Field>` members, or the
 * endpoint's `nextPageParam` / `previousPageParam`). A refetch of the list (focus, a poll, an
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
    // The param of the page after (or before) those held, from the list's record of its pages
    // (pages.ts), else from the list's own response. A primitive, so the hook renders only when it changes.
    const selectLink = (which: 'next' | 'previous') =>
      unlessSliceChanged(cache, state => {
        const record = place && listRecord(reads.slice(state), place);
        const from = record ?? response(state).data;
        const link = record ? record[which] : paging?.[which](from);
        if (which === 'next' && link === undefined && from !== undefined) cannotTell(endpoint, field);
        return link;
      });
    return {
      selectNext: selectLink('next'),
      selectPrevious: selectLink('previous'),
      selectError: unlessSliceChanged(cache, state => response(state).error),
    };
    // `args` is represented by its memo key.
  }, [cache, endpoint, field, memoKey]);
  const next = useSelector(list.selectNext);
  const before = useSelector(list.selectPrevious);
  // The last page load of a list: in flight (no error) or failed; shown only for that list.
  const [page, setPage] = useState<{ of: object; back: boolean; error?: Error } | undefined>(undefined);
  // One page at a time per list, whatever the renders in between: the ref answers at once.
  const inFlight = useRef<object | undefined>(undefined);
  const load = useCallback(
    async (param: unknown, back: boolean): Promise<void> => {
      if (param === undefined || param === null || inFlight.current === list) return;
      const params = (args[0] ?? {}) as Record<string, unknown>;
      inFlight.current = list;
      setPage({ of: list, back });
      let done: { of: object; back: boolean; error?: Error } | undefined;
      try {
        await controller.fetch(endpoint.getPage, { ...params, [field]: param } as never);
      } catch (error) {
        done = { of: list, back, error: error instanceof Error ? error : nonErrorThrown(error) };
      }
      if (inFlight.current === list) inFlight.current = undefined;
      setPage(current => (current?.of === list ? done : current));
    },
    // `args` is represented by its memo key, and so by `list`.
    [controller, endpoint, field, list],
  );
  const loadMore = useCallback(() => load(next, false), [load, next]);
  const loadPrevious = useCallback(() => load(before, true), [load, before]);
  const refetch = useCallback(
    (options?: { firstPageOnly?: boolean }) =>
      controller.fetch(options?.firstPageOnly ? firstPageOnly(endpoint as never) : endpoint, ...(args as never[])).then(
        () => undefined,
        () => undefined,
      ),
    // `args` is represented by `list`.
    [controller, endpoint, list],
  );
  const listError = useSelector(list.selectError);
  const mine = page?.of === list ? page : undefined;
  const error = mine?.error ?? listError;
  const loading = mine !== undefined && mine.error === undefined;
  const hasMore = next !== undefined && next !== null;
  const hasPrevious = before !== undefined && before !== null;
  const loadingMore = loading && !mine.back;
  const loadingPrevious = loading && mine.back;
  return useMemo(
    () => ({ data, loadMore, hasMore, loadingMore, loadPrevious, hasPrevious, loadingPrevious, refetch, error }),
    [data, loadMore, hasMore, loadingMore, loadPrevious, hasPrevious, loadingPrevious, refetch, error],
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
