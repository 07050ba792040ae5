/**
 * How one request is sent (docs/RestEndpoint.md): through the endpoint's `request` or `fetch`,
 * ended at once by an abort, and, with a `timeout`, each try aborted after that long with TIMEOUT,
 * which retries treat as a network failure. An abort the app made is no failure of its key.
 */

import { describe, ErrorCode, setupError } from '../../base/errors.js';
import { startTimer } from '../../base/timers.js';
import type { EndpointLike } from '../endpoint.js';

/**
 * Whether a request's failure is an abort (an `AbortError`: `promise.abort()`, `useCancelling`, an
 * unmount): the app stopped a request it no longer needs, which is no failure of its key, so
 * nothing is stored for it. Any other reason given to `abort(reason)` (a timeout) is a failure.
 */
export function isCancellation(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/** How `endpoint` sends: its `request(args, signal)`, else its `fetch(...args)`; INVALID_SCHEMA without either. */
export function runnerOf(endpoint: EndpointLike): (args: readonly unknown[], signal: AbortSignal) => Promise<unknown> {
  if (typeof endpoint.request === 'function') return (args, signal) => endpoint.request!(args, signal);
  if (typeof endpoint.fetch === 'function') return args => endpoint.fetch!(...args);
  throw setupError(
    ErrorCode.INVALID_SCHEMA,
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
    ErrorCode.TIMEOUT,
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
    ErrorCode.NETWORK_ERROR,
    process.env.NODE_ENV !== 'production' && [
      `The request ${key} failed without a reason: it was rejected with ${describe(error)}.`,
      'Make the endpoint reject with an Error that says what went wrong.',
    ],
  );
}
