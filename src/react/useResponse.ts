/**
 * What useSuspense, useFetch and useCache share: an endpoint's response for args, read through
 * react-redux's `useSelector`, and the fetch decision made from it during render. The rules
 * (when a settled request must not be sent again) and the state (requests, marks, who reads
 * what) belong to the store's runtime (store/runtime/StoreRuntime.ts); this file only binds them to React.
 */

import { useEffect, useMemo, useRef } from 'react';
import { useSelector, useStore } from 'react-redux';
import { setupError, describe } from '../base/errors.js';
import { argsKey, isSkipArgs } from '../base/json.js';
import { internalsOf, type Cache } from '../store/createCache.js';
import { requestKey, type EndpointLike } from '../store/endpoint.js';
import type { FetchPromise } from '../store/runtime/Requests.js';
import type { Controller } from '../store/runtime/Controller.js';
import type { ExpiryStatus, RequestKeys, ResponseState } from '../store/reads/selectors.js';

/** Args whose params (`args[0]`) may be `null`, which skips the read and the fetch. */
export type SkippableArgs<A> = A extends readonly [infer First, ...infer Rest]
  ? A | [First | null, ...Rest]
  : A | [null];

/** An endpoint the fetching hooks accept: a read (mutations have `sideEffect: true`; see MUTATION_IN_HOOK). */
export type ReadEndpoint = EndpointLike & { sideEffect?: false | undefined };

/** Which changes of a response make a hook render again. */
export type SameResponse = (a: ResponseState, b: ResponseState) => boolean;

/** For hooks whose render depends on the data, the error and whether it is loading; not on `expiresAt`. */
export function sameOutcome(a: ResponseState, b: ResponseState): boolean {
  return a.data === b.data && a.error === b.error && a.expiryStatus === b.expiryStatus;
}

export interface ResponseRead {
  /** What the hook renders: the response as of the store state React rendered with. */
  response: ResponseState;
  /** The response now (store state and clock of this render): what the fetch decision used. */
  current: ResponseState;
  /** The request started or joined by this render, when `current` was not valid and `fetch` was asked for. */
  request: FetchPromise<unknown> | undefined;
  /** `endpoint.key(...args)`, or undefined when skipped. */
  key: string | undefined;
  /** A result is stored for this request (not only data read through a query key). */
  stored: boolean;
  /** The last request settled, nothing changed since, and the response is still invalid: no new request was started. */
  settledInvalid: boolean;
  /** The store's Controller (requests, retention, the settled outcome for Suspense). */
  controller: Controller;
}

/**
 * Reads `endpoint`'s response for args. With `fetch`, a response that is not valid starts (or
 * joins) its request during render. That is safe there: starting a fetch dispatches nothing, the
 * network call is made in a microtask, and identical reads in flight share one request
 * (StrictMode's second render joins the first one's).
 */
export function useResponse(
  cache: Cache<string>,
  hook: string,
  endpoint: EndpointLike,
  args: readonly unknown[],
  same: SameResponse,
  fetch: boolean,
): ResponseRead {
  if (fetch && endpoint.sideEffect) {
    throw setupError(
      'MUTATION_IN_HOOK',
      process.env.NODE_ENV !== 'production' && [
        `${hook} was given ${describe(endpoint)}, a mutation: it would send a new request on every render.`,
        'Hooks read. Send mutations from an event handler with useMutation(endpoint), which gives a trigger and its pending and error state (or call useController().fetch(endpoint, ...args)).',
      ],
    );
  }
  const store = useStore();
  const reads = internalsOf(cache);
  // Args are compared by value, so inline object literals do not make a new selector. The
  // keys are computed once per args, not once per store change.
  const memoKey = isSkipArgs(args) ? null : argsKey(args);
  const { keys, selector } = useMemo(() => {
    const keys: RequestKeys | undefined =
      memoKey === null ? undefined : { request: requestKey(endpoint, args), memo: memoKey };
    const read = (state: unknown): ResponseState =>
      keys ? reads.response(state, endpoint, args, keys) : cache.selectResponse(state, endpoint, null);
    return { keys, selector: unlessSliceChanged(cache, read) };
    // `args` is represented by its memo key.
  }, [cache, endpoint, memoKey]);
  const response = useSelector(selector, same);
  const controller = cache.controller(store);
  // The status this reader rendered last, for its key: stale data is fetched when it goes stale
  // or the reader mounts, not again on each render (Controller.revalidate).
  const seen = useRef<{ key: string; status: ExpiryStatus } | undefined>(undefined);
  // Held while mounted: garbage collection keeps it, refetch-on-focus refetches it.
  useEffect(() => (keys ? controller.retain(endpoint, ...(args as never[])) : undefined), [controller, keys]);
  useEffect(() => (keys ? controller.shown(keys.request) : undefined), [controller, keys, response]);
  if (!keys)
    return {
      response,
      current: response,
      request: undefined,
      key: undefined,
      stored: false,
      settledInvalid: false,
      controller,
    };
  // The decision reads the store again, at this render's time: the selection is only re-run on
  // store changes, and its equality ignores `expiresAt`, but expiry depends on the clock.
  // The read is memoized, so this costs a lookup.
  const state = store.getState();
  const current = reads.response(state, endpoint, args, keys);
  const key = keys.request;
  const read = { response, current, key, stored: reads.slice(state).endpoints[key] !== undefined, controller };
  const last = seen.current?.key === key ? seen.current.status : undefined;
  seen.current = { key, status: current.expiryStatus };
  const decided = fetch ? controller.revalidate(endpoint, args, current, key, last) : undefined;
  if (decided === 'stuck') return { ...read, request: undefined, settledInvalid: true };
  return { ...read, request: decided, settledInvalid: false };
}

/**
 * A selector that returns its last result while the cache's slice is the same object: actions of
 * other slices then cost one property read per mounted hook.
 */
export function unlessSliceChanged<T>(cache: Cache<string>, select: (state: unknown) => T): (state: unknown) => T {
  let slice: unknown;
  let result: T;
  let ran = false;
  return state => {
    const next = (state as Record<string, unknown> | undefined)?.[cache.reducerPath];
    if (ran && next === slice && next !== undefined) return result;
    result = select(state);
    slice = next;
    ran = true;
    return result;
  };
}
