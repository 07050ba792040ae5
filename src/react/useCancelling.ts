/** useCancelling: an endpoint whose request is aborted when the args change (docs/useDebounce.md). */

import { useEffect, useMemo, useRef } from 'react';
import { argsKey } from '../base/json.js';
import type { ArgsOf } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';

/**
 * The same endpoint (the same keys and stored responses), whose request in flight is aborted as
 * soon as the args change or the component unmounts (data-client's `useCancelling`): typing in a
 * search box sends one request per settled query, and the ones it no longer needs are stopped.
 * Needs an endpoint with `request(args, signal)` (a RestEndpoint); others are returned as they are.
 *
 * @example
 * ```tsx
 * const results = useSuspense(useCancelling(searchPosts, { query }), { query });
 * ```
 */
export function useCancelling<E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E> | [null]): E {
  const memoKey = argsKey(args);
  // The abort of the request the last args sent. Called as the args change, during the render
  // that has the new ones: that render may suspend (the new request), and an effect would only
  // run once it commits, after the old request had answered.
  const last = useRef<{ endpoint: E; memoKey: string; cancelling: E; abort(): void } | undefined>(undefined);
  const cancelling = useMemo(() => {
    // A render of the same args again (one that suspended is rendered anew before it commits)
    // keeps the endpoint whose request is in flight.
    const kept = last.current;
    if (kept && kept.endpoint === endpoint && kept.memoKey === memoKey) return kept.cancelling;
    kept?.abort();
    last.current = undefined;
    const request = endpoint.request;
    if (typeof request !== 'function') return endpoint;
    const own = new AbortController();
    const wrapped = Object.create(endpoint) as E & { request: NonNullable<EndpointLike['request']> };
    // The store's request options (the third argument) go on with the request.
    wrapped.request = (requestArgs, signal, context) =>
      request.call(endpoint, requestArgs, signal ? either(signal, own.signal) : own.signal, context);
    last.current = { endpoint, memoKey, cancelling: wrapped, abort: () => own.abort() };
    return wrapped as E;
    // `args` is represented by its memo key.
  }, [endpoint, memoKey]);
  // Unmounted: the request the last args sent is not needed either.
  useEffect(() => () => last.current?.abort(), []);
  return cancelling;
}

/** A signal that aborts when either does. */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (a.aborted) return a;
  if (b.aborted) return b;
  const both = new AbortController();
  const abort = (signal: AbortSignal) => () => both.abort(signal.reason);
  a.addEventListener('abort', abort(a), { once: true });
  b.addEventListener('abort', abort(b), { once: true });
  return both.signal;
}
