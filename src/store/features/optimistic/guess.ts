/**
 * The write of a mutation's optimistic guess (docs/mutations.md): `getOptimisticResponse(snap,
 * ...args)` is asked for the guess as the request starts, and again whenever the confirmed state
 * under it changes, and each guess is normalized by the endpoint's schema, like an answer
 * (collections, Scalar cells, `Invalidate` deletions), into a layer of the store's ledger. The
 * request's answer or failure takes the layer out.
 */

import type { UnknownAction } from '@reduxjs/toolkit';
import { describe, isErrorLike, setupError, type DevText } from '../../../base/errors.js';
import { nonErrorThrown } from '../../../normalize/rootChecks.js';
import { ActionTypes, writeAction, type WriteAction } from '../../slice/reducer.js';
import { expiryTime, requestKey, type EndpointLike, type OptimisticSnapshot } from '../../endpoint.js';
import type { OutgoingRequest } from '../../runtime/Feature.js';
import type { StoreRuntime } from '../../runtime/StoreRuntime.js';
import type { Layer, Optimistic } from './Optimistic.js';

/**
 * The action that shows the guess for the request `endpoint` (which has `getOptimisticResponse`:
 * the runtime asks for no other) started at `fetchedAt` with `args`; it writes nothing when the
 * guess is `undefined`. Throws what the guess throws, or fails to normalize with; nothing is then
 * recorded.
 */
export function optimisticWrite(
  runtime: StoreRuntime,
  ledger: Optimistic,
  endpoint: EndpointLike,
  args: readonly unknown[],
  fetchedAt: number,
): WriteAction {
  const guess = endpoint.getOptimisticResponse!;
  const now = Date.now();
  // Shown over the confirmed rows whatever their stamps (normalize's `overwrite`), marked as a
  // guess: a reader does not refetch what a pending guess deleted (docs/mutations.md).
  const meta = Object.freeze({
    fetchedAt,
    date: now,
    expiresAt: expiryTime(
      now,
      endpoint.dataExpiryLength ?? runtime.parts.expiry.dataExpiryLength,
      process.env.NODE_ENV !== 'production' && 'dataExpiryLength',
    ),
    optimistic: true,
  });
  const layer: Layer = {
    endpoint,
    schema: endpoint.schema,
    args,
    start: fetchedAt,
    meta,
    guess(below, visible, reading) {
      const snap: OptimisticSnapshot = {
        get: (queryable, ...readArgs) => {
          reading();
          return runtime.parts.readState(below, visible, queryable, readArgs) as never;
        },
        fetchedAt,
      };
      let value: unknown;
      try {
        value = guess.call(endpoint, snap, ...(args as never[]));
      } catch (error) {
        throw isErrorLike(error) ? error : nonErrorThrown(error);
      }
      return synchronous(
        value,
        process.env.NODE_ENV !== 'production' && `getOptimisticResponse of ${describe(endpoint)}`,
      );
    },
  };
  const payload = ledger.add(runtime.state(), layer, runtime.parts.normalizeOptions);
  return writeAction(ActionTypes.optimistic, runtime.parts.reducerPath, payload, {
    key: requestKey(endpoint, args),
    start: fetchedAt,
  });
}

/**
 * Dispatches the guess for a request starting now. When dispatching throws (a store listener
 * failed) the guess reached the store but the request will not be sent: it is taken out at once
 * (the reducer applies the rollback even if a listener throws again), and the first error is thrown.
 */
export function dispatchGuess(
  runtime: StoreRuntime,
  ledger: Optimistic,
  { endpoint, args, start: fetchedAt }: OutgoingRequest,
): void {
  const dispatch = runtime.store.dispatch as (action: UnknownAction) => unknown;
  const action = optimisticWrite(runtime, ledger, endpoint, args, fetchedAt);
  if (action.payload.patches.length === 0) return;
  try {
    dispatch(action as unknown as UnknownAction);
  } catch (error) {
    ledger.settle(endpoint, fetchedAt);
    const { payload } = ledger.write(runtime.state(), () => undefined, runtime.parts.normalizeOptions);
    try {
      if (payload.patches.length > 0)
        dispatch(
          writeAction(ActionTypes.optimistic, runtime.parts.reducerPath, payload, { start: fetchedAt }) as never,
        );
    } catch {
      // The first failure is the one the caller gets.
    }
    throw error;
  }
}

/** `value`, refused with a coded error when it is a promise: `what` computes its result at once, inside one write. */
function synchronous<T>(value: T, what: DevText): T {
  if (typeof value !== 'object' || value === null || typeof (value as { then?: unknown }).then !== 'function')
    return value;
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `${what} returned a promise: its result is needed at once, inside one write.`,
      'Return the value itself (read what you need first, or with snap.get in a guess); await anything slow before dispatching.',
    ],
  );
}
