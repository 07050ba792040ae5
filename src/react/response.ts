/**
 * What useSuspense, useFetch and useCache share (BEHAVIOR §14): an endpoint's response for args,
 * read through react-redux's `useSelector`, and the fetch decision made from it during render.
 */

import { useMemo } from 'react';
import { useSelector, useStore } from 'react-redux';
import { ErrorCode, setupError, describe } from '../shared/errors.js';
import { argsKey, isSkipArgs } from '../shared/json.js';
import type { Cache } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import type { FetchPromise } from '../store/Requests.js';
import type { ResponseState } from '../store/selectors.js';

/** Args whose params (`args[0]`) may be `null`, which skips the read and the fetch. */
export type SkippableArgs<A> = A extends readonly [infer First, ...infer Rest] ? A | [First | null, ...Rest] : A | [null];

/** Which changes of a response make a hook render again. */
export type SameResponse = (a: ResponseState, b: ResponseState) => boolean;

export interface ResponseRead {
  response: ResponseState;
  /** The request started or joined by this render, when the response was not valid and `fetch` was asked for. */
  request: FetchPromise<unknown> | undefined;
}

/**
 * Reads `endpoint`'s response for args. With `fetch`, a response that is not valid starts (or
 * joins) its request during render: starting a fetch dispatches nothing (§13.7), so this is safe
 * in render, and identical reads in flight share one request (StrictMode's second render joins
 * the first one's).
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
  // Args are compared by value (§14), so inline object literals do not make a new selector.
  const key = isSkipArgs(args) ? null : argsKey(args);
  const selector = useMemo(() => (state: unknown) => cache.selectResponse(state, endpoint, ...args), [cache, endpoint, key]);
  let response = useSelector(selector, same);
  if (key === null) return { response, request: undefined };
  // The status depends on the clock (§13.9): what was read at the last store change may have
  // expired since. Read again then, with the time of this render.
  if (response.expiryStatus !== 'invalid' && Date.now() > response.expiresAt) {
    response = cache.selectResponse(store.getState(), endpoint, ...args);
  }
  const request = fetch && response.expiryStatus !== 'valid' ? (cache.controller(store).fetch(endpoint, ...args) as FetchPromise<unknown>) : undefined;
  return { response, request };
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
