/**
 * What useSuspense, useFetch and useCache share (BEHAVIOR §14): an endpoint's response for args,
 * read through react-redux's `useSelector`, and the fetch decision made from it during render.
 */

import { useMemo } from 'react';
import { useSelector, useStore } from 'react-redux';
import { ErrorCode, setupError, describe } from '../shared/errors.js';
import { argsKey, isSkipArgs } from '../shared/json.js';
import { internalsOf, type Cache, type CacheInternals } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import type { FetchPromise } from '../store/Requests.js';
import type { RequestKeys, ResponseState } from '../store/selectors.js';

/** Args whose params (`args[0]`) may be `null`, which skips the read and the fetch. */
export type SkippableArgs<A> = A extends readonly [infer First, ...infer Rest] ? A | [First | null, ...Rest] : A | [null];

/** An endpoint the fetching hooks accept: a read (mutations have `sideEffect: true`; see MUTATION_IN_HOOK). */
export type ReadEndpoint = EndpointLike & { sideEffect?: false };

/** Which changes of a response make a hook render again. */
export type SameResponse = (a: ResponseState, b: ResponseState) => boolean;

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
}

type Store = ReturnType<typeof useStore>;

/**
 * Reads `endpoint`'s response for args. With `fetch`, a response that is not valid starts (or
 * joins) its request during render. That is safe there: starting a fetch dispatches nothing, the
 * network call is made in a microtask (§13.7), and identical reads in flight share one request
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
      ErrorCode.MUTATION_IN_HOOK,
      `${hook} was given ${describe(endpoint)}, a mutation: it would send a new request on every render.`,
      'Hooks read. Send mutations from an event handler: useController().fetch(endpoint, ...args).',
    );
  }
  const store = useStore();
  const reads = internalsOf(cache);
  // Args are compared by value (§14), so inline object literals do not make a new selector. The
  // keys are computed once per args, not once per store change.
  const memoKey = isSkipArgs(args) ? null : argsKey(args);
  const { keys, selector } = useMemo(() => {
    const keys: RequestKeys | undefined = memoKey === null ? undefined : { request: endpoint.key(...args), memo: memoKey };
    const read = (state: unknown): ResponseState => (keys ? reads.response(state, endpoint, args, keys) : cache.selectResponse(state, endpoint, null));
    return { keys, selector: unlessSliceChanged(cache, read) };
    // `args` is represented by its memo key.
  }, [cache, endpoint, memoKey]);
  const response = useSelector(selector, same);
  if (!keys) return { response, current: response, request: undefined, key: undefined, stored: false, settledInvalid: false };
  // The decision reads the store again, at this render's time: the selection is only re-run on
  // store changes, and its equality ignores `expiresAt`, but expiry depends on the clock (§13.9).
  // The read is memoized, so this costs a lookup.
  const state = store.getState();
  const current = reads.response(state, endpoint, args, keys);
  const key = keys.request;
  const slice = reads.slice(state);
  const read = { response, current, key, stored: slice.endpoints[key] !== undefined };
  if (fetch && settledInvalid(store, key, slice.meta[key], current.expiryStatus === 'invalid')) {
    return { ...read, request: undefined, settledInvalid: true };
  }
  const request = fetch && current.expiryStatus !== 'valid' ? (cache.controller(store).fetch(endpoint, ...args) as FetchPromise<unknown>) : undefined;
  if (request) watch(reads, store, key, request);
  return { ...read, request, settledInvalid: false };
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

const watched = new WeakSet<Promise<unknown>>();
/**
 * Per store and request key: the meta record the last settled request left. While that very
 * record is still the key's meta, nothing was written for the key since; if the response reads as
 * invalid then, the request did not help, and suspending again would send it again without end.
 */
const settledMeta = new WeakMap<Store, Map<string, object>>();

/** Handles the request's rejection (the error is stored, and nobody else may hold the promise) and notes the meta it left. */
function watch(reads: CacheInternals, store: Store, key: string, request: Promise<unknown>): void {
  if (watched.has(request)) return;
  watched.add(request);
  const note = (): void => {
    const meta = reads.slice(store.getState()).meta[key];
    if (!meta) return;
    let marks = settledMeta.get(store);
    if (!marks) settledMeta.set(store, (marks = new Map()));
    marks.set(key, meta);
  };
  request.then(note, note);
}

/**
 * True when the last request for `key` settled, nothing was written for the key since (`meta` is
 * the record it left), and the response still reads as invalid: a root entity kept deleted by a
 * newer tombstone, an error that expired at once. The mark stays while that holds (React's own
 * retry of a throwing render, and an error boundary's, get the same answer); any write for the
 * key (`invalidate`, a reset, a new answer) or a usable read forgets it.
 */
function settledInvalid(store: Store, key: string, meta: object | undefined, invalid: boolean): boolean {
  const marks = settledMeta.get(store);
  const mark = marks?.get(key);
  if (mark === undefined) return false;
  if (invalid && mark === meta) return true;
  marks!.delete(key);
  return false;
}

const settledPromises = new WeakMap<Promise<unknown>, Promise<unknown>>();

/**
 * A promise that settles with `request` and never rejects: its value on success, `undefined` on
 * failure (the error is stored, and read with selectResponse or useSuspense). The same promise
 * for the same request, so React sees one thenable per request.
 */
export function settledOf<T>(request: Promise<T>): Promise<T | undefined> {
  let settled = settledPromises.get(request);
  if (!settled) {
    settled = request.then(
      value => value,
      () => undefined,
    );
    settledPromises.set(request, settled);
  }
  return settled as Promise<T | undefined>;
}
