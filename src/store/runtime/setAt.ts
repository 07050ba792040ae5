/**
 * `set`'s write (docs/store.md), as of a start stamp: the Controller's `set` starts it now; a
 * stream's burst as of its first message (features/live/stream.ts).
 */

import { ActionTypes } from '../slice/reducer.js';
import { computeSet } from '../writes/compute.js';
import { draftUpdate } from '../writes/draftUpdate.js';
import type { Controller, ControllerRuntime } from './Controller.js';

/**
 * `set`'s write, as of `start`: a write that started later keeps its rows over this one's, and
 * a reset since `start` drops it (a stream's burst is as old as its first message).
 */
export function setAt(
  runtime: ControllerRuntime,
  start: number,
  schema: unknown,
  args: readonly unknown[],
  value: unknown,
): void {
  const { parts } = runtime;
  const updater = typeof value === 'function';
  // An updater edits the cache: only the rows it changed get a new expiry (docs/store.md).
  const options = updater ? { ...parts.normalizeOptions, changedRowsOnly: true } : parts.normalizeOptions;
  runtime.write(
    ActionTypes.set,
    (confirmed, visible) => {
      let next = value;
      if (updater) {
        // An updater edits the confirmed value, never a pending guess (docs/mutations.md),
        // and runs only on a cached value: with nothing cached, nothing is written.
        const current = parts.readState(confirmed, visible, schema, args);
        if (current === undefined) return undefined;
        next = draftUpdate(current, value as (draft: unknown) => unknown);
      }
      if (next === undefined) return undefined;
      return computeSet(confirmed, schema, args, next, Date.now(), start, options, parts.expiry);
    },
    { start },
  );
}

/** A stamp of `controller`'s store clock: when a stream message arrived (stream.ts). */
export const stampOf = (controller: Controller): number => controller['runtime'].stamp();

/** `controller.set(schema, ...args, value)` as of `start` (stream.ts: a burst written as of its first message). */
export const setAsOf = (
  controller: Controller,
  start: number,
  schema: unknown,
  args: readonly unknown[],
  value: unknown,
): void => setAt(controller['runtime'], start, schema, args, value);
