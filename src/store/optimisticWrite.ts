/**
 * The write of a mutation's optimistic guess (docs/mutations.md): `getOptimisticResponse(snap,
 * ...args)` is asked for the guess as the request starts, and again whenever the confirmed state
 * under it changes, and each guess is normalized by the endpoint's schema, like an answer
 * (collections, Scalar cells, `Invalidate` deletions), into a layer of the store's ledger. The
 * request's answer or failure takes the layer out.
 */

import { describe, ErrorCode, isErrorLike, setupError } from '../base/errors.js';
import type { CacheState } from '../base/state.js';
import type { NormalizeOptions } from '../normalize/normalize.js';
import { nonErrorThrown } from '../normalize/rootChecks.js';
import { ActionTypes, writeAction, type WriteAction } from './actions.js';
import { DEFAULT_DATA_EXPIRY, expiryTime, type EndpointLike, type OptimisticSnapshot } from './endpoint.js';
import type { Layer, Optimistic } from './Optimistic.js';

export interface OptimisticDeps {
  slice(rootState: unknown): CacheState;
  /** Reads `state` as `selectQuery` does (through the memo when `state` is the store's slice). */
  query(state: CacheState, visible: CacheState, queryable: unknown, args: readonly unknown[]): unknown;
  ledger: Optimistic;
  normalizeOptions: NormalizeOptions;
  reducerPath: string;
}

/**
 * The action that shows the guess for the request `endpoint` started at `fetchedAt` with `args`,
 * or undefined when there is none (no `getOptimisticResponse`, or it returned `undefined`).
 * Throws what the guess throws, or fails to normalize with; nothing is then recorded.
 */
export function optimisticWrite(
  deps: OptimisticDeps,
  endpoint: EndpointLike,
  args: readonly unknown[],
  fetchedAt: number,
  getState: () => unknown,
): WriteAction | undefined {
  const guess = endpoint.getOptimisticResponse;
  if (typeof guess !== 'function') return undefined;
  const now = Date.now();
  // Shown over the confirmed rows whatever their stamps (normalize's `overwrite`), marked as a
  // guess: a reader does not refetch what a pending guess deleted (docs/mutations.md).
  const meta = Object.freeze({
    fetchedAt,
    date: now,
    expiresAt: expiryTime(now, endpoint.dataExpiryLength ?? DEFAULT_DATA_EXPIRY, 'dataExpiryLength'),
    optimistic: true,
  });
  const layer: Layer = {
    endpoint,
    schema: endpoint.schema,
    args,
    start: fetchedAt,
    meta,
    guess(below, visible) {
      const snap: OptimisticSnapshot = {
        get: (queryable, ...readArgs) => deps.query(below, visible, queryable, readArgs) as never,
        fetchedAt,
      };
      let value: unknown;
      try {
        value = guess.call(endpoint, snap, ...(args as never[]));
      } catch (error) {
        throw isErrorLike(error) ? error : nonErrorThrown(error);
      }
      if (isThenable(value)) throw asyncGuess(endpoint);
      return value;
    },
  };
  const payload = deps.ledger.add(deps.slice(getState()), layer, deps.normalizeOptions);
  return writeAction(ActionTypes.optimistic, deps.reducerPath, payload, {
    key: endpoint.key(...args),
    start: fetchedAt,
  });
}

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function asyncGuess(endpoint: EndpointLike) {
  return setupError(
    ErrorCode.INVALID_OPTION,
    process.env.NODE_ENV !== 'production' && [
      `getOptimisticResponse of ${describe(endpoint)} returned a promise: a guess is shown as the request starts, so it must be computed at once.`,
      'Return the guessed response itself (read what it needs with snap.get), or leave getOptimisticResponse out.',
    ],
  );
}
