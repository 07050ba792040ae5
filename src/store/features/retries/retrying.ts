/**
 * Retries of a read (docs/live-data.md#retries): the request path sends a failed read again,
 * after the endpoint's delay, while it is worth it and allowed. The whole run is one request in
 * flight (one key, one shared promise), so callers that join it wait for the last answer, and
 * the error stored is the last one.
 */

import { checkDelay, defaultRetryDelay, isRetryable, type RetryOptions } from '../../../base/endpointOptions.js';
import { startTimer } from '../../../base/timers.js';

/**
 * Runs `attempt` until it succeeds, the error is not worth another try, `retry.attempts` retries
 * are spent, or a `stop` signal aborts (the request is aborted, the store was reset, or the
 * poller that started the request stopped); then rejects with the last error. A delay that is not
 * a number of ms rejects with INVALID_SCHEMA instead (its `cause` is the last error).
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  retry: RetryOptions,
  stop: readonly AbortSignal[],
): Promise<T> {
  for (let made = 0; ; made++) {
    try {
      return await attempt();
    } catch (error) {
      if (made >= retry.attempts || stopped(stop) || !isRetryable(error)) throw error;
      await pause(delayOf(retry, made + 1, error), stop);
      if (stopped(stop)) throw error;
    }
  }
}

function stopped(stop: readonly AbortSignal[]): boolean {
  return stop.some(signal => signal.aborted);
}

/** The endpoint's wait before retry `attempt`; a bad one fails the run, the last failure as its `cause`. */
function delayOf(retry: RetryOptions, attempt: number, last: unknown): number {
  const ms = (retry.delay ?? defaultRetryDelay)(attempt);
  try {
    return checkDelay(ms, attempt, process.env.NODE_ENV !== 'production' && 'retry.delay');
  } catch (error) {
    // As a native `cause`: not enumerable.
    Object.defineProperty(error, 'cause', { value: last, configurable: true, writable: true });
    throw error;
  }
}

/** Resolves after `ms`, or as soon as one of the signals aborts (never rejects). */
function pause(ms: number, stop: readonly AbortSignal[]): Promise<void> {
  return new Promise(resolve => {
    const done = () => {
      cancel();
      for (const signal of stop) signal.removeEventListener('abort', done);
      resolve();
    };
    const cancel = startTimer(done, ms);
    for (const signal of stop) signal.addEventListener('abort', done, { once: true });
  });
}
