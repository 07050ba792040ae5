/**
 * Retries of a read (docs/live-data.md#retries): the request path sends a failed read again,
 * after the endpoint's delay, while it is worth it and allowed. The whole run is one request in
 * flight (one key, one shared promise), so callers that join it wait for the last answer, and
 * the error stored is the last one.
 */

import { defaultRetryDelay, isRetryable, type RetryOptions } from '../base/liveOptions.js';

/**
 * Runs `attempt` until it succeeds, the error is not worth another try, `retry.attempts` retries
 * are spent, or a `stop` signal aborts (the request is aborted, or the store was reset); then
 * rejects with the last error. Waiting between tries holds a timer that does not keep Node alive.
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
      await pause(delayOf(retry, made + 1), stop);
      if (stopped(stop)) throw error;
    }
  }
}

function stopped(stop: readonly AbortSignal[]): boolean {
  return stop.some(signal => signal.aborted);
}

/** The endpoint's delay for retry `attempt`; a delay that is not a finite number ≥ 0 waits 0 ms. */
function delayOf(retry: RetryOptions, attempt: number): number {
  const ms = (retry.delay ?? defaultRetryDelay)(attempt);
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** Resolves after `ms`, or as soon as one of the signals aborts (never rejects). */
function pause(ms: number, stop: readonly AbortSignal[]): Promise<void> {
  return new Promise(resolve => {
    const done = () => {
      clearTimeout(timer);
      for (const signal of stop) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = unrefTimeout(done, ms);
    for (const signal of stop) signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * `setTimeout` whose timer does not keep Node's process alive (`unref`, where the timer has it;
 * browsers return a number): a retry or a poll is never a reason for a script to keep running.
 */
export function unrefTimeout(run: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(run, ms);
  const handle = timer as unknown as { unref?: () => void };
  if (typeof handle === 'object' && typeof handle.unref === 'function') handle.unref();
  return timer;
}
