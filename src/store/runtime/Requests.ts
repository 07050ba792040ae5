/**
 * The requests in flight of one store, and how one is sent (docs/architecture.md, "One request,
 * top to bottom"). The table holds the shared read of each key (what an identical read joins,
 * what `isFetching` answers), and every request not settled yet (what a sweep keeps); the store's
 * runtime runs each request, and the table only records it, calling nobody back but the
 * listeners of `fetching`. The functions after it send one try (docs/RestEndpoint.md): through
 * the endpoint's `request` or `fetch`, ended at once by an abort, and, with a `timeout`, aborted
 * after that long with TIMEOUT, which retries treat as a network failure. An abort the app made
 * is no failure of its key.
 */

import { describe, setupError } from '../../base/errors.js';
import { startTimer } from '../../base/timers.js';
import type { EndpointLike } from '../endpoint.js';
import type { RequestOptions } from '../../rest/requestContext.js';
import type { StoreLike } from '../types.js';

/** What `cache.fetch` resolves to, with `abort()`: shared requests are aborted for every caller. */
export type FetchPromise<T> = Promise<T> & { abort(reason?: unknown): void };

/** A request not settled yet: its key, its start stamp, and whether it is a mutation (answered with its arrival's stamp). */
export interface Unsettled {
  readonly key: string;
  readonly start: number;
  /** The endpoint's schema: what its answer can write. */
  readonly schema: unknown;
}

interface Shared {
  readonly promise: FetchPromise<unknown>;
  readonly controller: AbortController;
  readonly start: number;
}

export class Requests {
  private readonly shared = new Map<string, Shared>();
  /** Every request not settled yet (shared or not): what a sweep must keep. */
  private readonly running = new Map<AbortController, Unsettled>();
  /** Counts resets: a request from an earlier one writes nothing, even within the same millisecond. */
  generation = 0;
  /** Aborted by a reset: retries waiting to be sent give up (a new one is made for the next run). */
  resets = new AbortController();
  /** Told (in a microtask, batched) when a key's shared request starts or ends. */
  private readonly listeners = new Set<() => void>();
  private told = false;

  /**
   * Calls `listener` whenever a read's request in flight starts or ends (what `fetching` answers
   * changed), in a microtask and once per burst: requests start during renders, where no other
   * component may be told to render. Returns the removal.
   */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(): void {
    if (this.told || this.listeners.size === 0) return;
    this.told = true;
    queueMicrotask(() => {
      this.told = false;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Whether a read's request for `key` is in flight now. */
  fetching(key: string): boolean {
    return this.shared.has(key);
  }

  /** The read in flight for `key` (an identical read joins it; pollers too). */
  pending(key: string): FetchPromise<unknown> | undefined {
    return this.shared.get(key)?.promise;
  }

  /** The start stamp of the read in flight for `key`: its answer is stored with it (`fetchedAt`). */
  startOf(key: string): number | undefined {
    return this.shared.get(key)?.start;
  }

  /** The requests not settled yet (garbage collection keeps their keys and what they may write). */
  unsettled(): Iterable<Unsettled> {
    return this.running.values();
  }

  /** Records a request that starts now; a read is the one its key's next identical reads join. */
  add(
    endpoint: EndpointLike,
    key: string,
    start: number,
    controller: AbortController,
    promise?: FetchPromise<unknown>,
  ) {
    this.running.set(controller, { key, start, schema: endpoint.schema });
    if (!promise) return;
    this.shared.set(key, { promise, controller, start });
    this.changed();
  }

  /** Frees `key` for the next fetch, unless a newer request holds it already. */
  release(key: string, controller: AbortController): void {
    if (this.shared.get(key)?.controller !== controller) return;
    this.shared.delete(key);
    this.changed();
  }

  /** The request of `controller` settled (its outcome is written, or dropped). */
  settled(controller: AbortController): void {
    this.running.delete(controller);
  }

  /** Lets the next fetch of `key` start a new request (after `invalidate`, an abort). */
  forget(key: string): void {
    if (this.shared.delete(key)) this.changed();
  }

  /** Forgets every request (a reset: their answers are dropped, new fetches start anew). */
  clear(): void {
    if (this.shared.size > 0) this.changed();
    this.shared.clear();
    this.running.clear();
    this.generation++;
    this.resets.abort();
    this.resets = new AbortController();
  }
}

// How one request is sent: one try, its time limit, and how its failure is read.

/**
 * Whether a request's failure is an abort (an `AbortError`: `promise.abort()`, `useCancelling`, an
 * unmount): the app stopped a request it no longer needs, which is no failure of its key, so
 * nothing is stored for it. Any other reason given to `abort(reason)` (a timeout) is a failure.
 */
export function isCancellation(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/**
 * How `endpoint` sends: its `request(args, signal, context)` with the store's request options,
 * else its `fetch(...args)`; INVALID_SCHEMA without either.
 */
export function runnerOf(
  endpoint: EndpointLike,
  options: RequestOptions,
  store: StoreLike,
): (args: readonly unknown[], signal: AbortSignal) => Promise<unknown> {
  if (typeof endpoint.request === 'function')
    return (args, signal) =>
      // (`store` is the middleware's API: `getState` and `dispatch`.)
      endpoint.request!(args, signal, {
        ...options,
        ...store,
        endpoint,
        args,
      });
  if (typeof endpoint.fetch === 'function') return args => endpoint.fetch!(...args);
  throw setupError(
    'INVALID_SCHEMA',
    process.env.NODE_ENV !== 'production' && [
      `cache.fetch needs an endpoint that can fetch, but received ${describe(endpoint)} without fetch().`,
      'Use a RestEndpoint, or give the endpoint a fetch(...args) method returning a promise of the response.',
    ],
  );
}

/** Settles with the request, or rejects as soon as the signal aborts (whether or not it listens). */
export function untilAborted<T>(request: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(
      value => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      error => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Runs `send` with a signal that aborts after `ms` (TIMEOUT) or with `signal`, and settles as soon as either aborts. */
export function withTimeout<T>(
  send: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
  ms: number,
  key: string,
): Promise<T> {
  const attempt = new AbortController();
  const onAbort = () => attempt.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const cancel = startTimer(() => attempt.abort(timedOut(key, ms)), ms);
  return untilAborted(send(attempt.signal), attempt.signal).finally(() => {
    cancel();
    signal.removeEventListener('abort', onAbort);
  });
}

function timedOut(key: string, ms: number): Error {
  return setupError(
    'TIMEOUT',
    process.env.NODE_ENV !== 'production' && [
      `The request ${key} had no answer after ${ms} ms, so it was aborted.`,
      'Raise the timeout of the endpoint or of createCache if the server is slow, or find why it does not answer; reads with retry are sent again.',
    ],
  );
}

/**
 * One try of a request, as a function the retries can call again: sent in a microtask, after the
 * request is in the table (hooks fetch during render, where no endpoint code may run), and aborted
 * after `limit` ms with TIMEOUT when there is a limit.
 */
export function tryOf(
  run: (args: readonly unknown[], signal: AbortSignal) => Promise<unknown>,
  args: readonly unknown[],
  signal: AbortSignal,
  limit: number | undefined,
  key: string,
): () => Promise<unknown> {
  return () =>
    Promise.resolve().then(() => {
      signal.throwIfAborted();
      return limit === undefined || limit === Infinity
        ? run(args, signal)
        : withTimeout(inner => run(args, inner), signal, limit, key);
    });
}

/** The error a request rejected with nothing (`undefined`, `null`) is stored as. */
export function noReason(key: string, error: unknown): Error {
  return setupError(
    'NETWORK_ERROR',
    process.env.NODE_ENV !== 'production' && [
      `The request ${key} failed without a reason: it was rejected with ${describe(error)}.`,
      'Make the endpoint reject with an Error that says what went wrong.',
    ],
  );
}
