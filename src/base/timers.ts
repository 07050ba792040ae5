/**
 * The one timer every delay a user gives goes through (polls, retry waits, stream reconnects):
 * see docs/live-data.md, "Timers". `setTimeout` keeps its delay in a signed 32-bit integer, so a
 * delay above 2^31−1 ms (about 24.8 days) does not wait at all: it fires after 1 ms, and a poller
 * that re-arms after each answer then polls without pause. Here such a delay is waited for in steps.
 */

import { describe, setupError } from './errors.js';

/** The longest delay `setTimeout` waits for: 2^31−1 ms, about 24.8 days. */
export const MAX_TIMEOUT = 2 ** 31 - 1;

/**
 * Runs `run` once, `ms` milliseconds from now, and returns `cancel()` (safe to call at any time,
 * and more than once). Any length is honoured: a delay longer than `MAX_TIMEOUT` is waited for
 * in steps of at most `MAX_TIMEOUT`, and `Infinity` never runs. The timer never keeps Node's
 * process alive: a poll or a retry is never a reason for a script to go on running.
 *
 * Throws INVALID_OPTION for a delay that is not a number of milliseconds (`NaN`, negative, not a
 * number): the callers check what users give before, so this is the last line, not the message
 * users should meet.
 */
export function startTimer(run: () => void, ms: number): () => void {
  // (`!(ms >= 0)` is also true for NaN.)
  if (typeof ms !== 'number' || !(ms >= 0)) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `A timer was asked to wait ${describe(ms)}, which is not a number of milliseconds (0 or more).`,
        'Give delays (pollFrequency, retry delays, reconnect delays) as numbers of milliseconds, e.g. 5_000.',
      ],
    );
  }
  let handle: ReturnType<typeof setTimeout> | undefined;
  const step = (left: number): void => {
    const wait = Math.min(left, MAX_TIMEOUT);
    handle = setTimeout(() => {
      handle = undefined;
      if (left > MAX_TIMEOUT) step(left - MAX_TIMEOUT);
      else run();
    }, wait);
    // Node's timers have unref (browsers return a number).
    (handle as { unref?: () => void }).unref?.();
  };
  if (ms !== Infinity) step(ms);
  return () => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
}
