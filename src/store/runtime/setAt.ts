/**
 * `set`'s write (docs/store.md), as of a start stamp: the Controller's `set` starts it now; a
 * stream's burst as of its first message (features/live/stream.ts).
 */

import { ActionTypes } from '../slice/reducer.js';
import { computeSet } from '../writes/compute.js';
import { draftUpdate } from '../writes/draftUpdate.js';
import type { CacheState } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import type { ExpiryDefaults } from '../endpoint.js';
import type { ActionMeta, ActionType, WritePayload } from '../slice/reducer.js';

/** What a `set` needs of the store's runtime (the Controller's runtime has it; not imported, as the Controller imports this). */
interface SetRuntime {
  readonly parts: {
    readonly normalizeOptions: NormalizeOptions;
    readonly expiry: ExpiryDefaults;
    readState(state: CacheState, visible: CacheState, schema: unknown, args: readonly unknown[]): unknown;
  };
  stamp(): number;
  write<T extends WritePayload>(
    type: ActionType,
    compute: (confirmed: CacheState, visible: CacheState) => T | undefined,
    meta?: ActionMeta,
  ): T | undefined;
}

/** A Controller's runtime (its private member, reached from the stream that holds the Controller). */
const runtimeOf = (controller: object): SetRuntime => (controller as { runtime: SetRuntime }).runtime;

/**
 * `set`'s write, as of `start`: a write that started later keeps its rows over this one's, and
 * a reset since `start` drops it (a stream's burst is as old as its first message).
 */
export function setAt(
  runtime: SetRuntime,
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
export const stampOf = (controller: object): number => runtimeOf(controller).stamp();

/** `controller.set(schema, ...args, value)` as of `start` (stream.ts: a burst written as of its first message). */
export const setAsOf = (
  controller: object,
  start: number,
  schema: unknown,
  args: readonly unknown[],
  value: unknown,
): void => setAt(runtimeOf(controller), start, schema, args, value);
