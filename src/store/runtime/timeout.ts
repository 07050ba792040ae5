/**
 * A request's time limit (docs/RestEndpoint.md, "Timeouts"): each try gets `ms` to answer, then it
 * is aborted and fails with TIMEOUT, which retries treat as a network failure. An abort of the
 * request itself still reaches the try, with its own reason.
 */

import { ErrorCode, setupError } from '../../base/errors.js';
import { startTimer } from '../../base/timers.js';

/** Runs `send` with a signal that aborts after `ms` (TIMEOUT) or with `signal`; settles as soon as either aborts. */
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
  return new Promise<T>((resolve, reject) => {
    const fail = () => reject(attempt.signal.reason);
    attempt.signal.addEventListener('abort', fail, { once: true });
    const done = () => {
      cancel();
      signal.removeEventListener('abort', onAbort);
      attempt.signal.removeEventListener('abort', fail);
    };
    send(attempt.signal).then(
      value => (done(), resolve(value)),
      error => (done(), reject(error)),
    );
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
