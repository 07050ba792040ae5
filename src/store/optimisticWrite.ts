/**
 * The write of a mutation's optimistic value (docs/mutations.md): `getOptimisticResponse(snap,
 * ...args)` is asked for the guess as the request starts, and the guess is normalized by the
 * endpoint's schema, like an answer (collections, Scalar cells, `Invalidate` deletions), into a
 * layer of the store's Optimistic ledger. The request's answer or failure takes the layer out.
 */

import type { CacheState } from '../base/state.js';
import type { NormalizeOptions } from '../normalize/normalize.js';
import { ActionTypes, writeAction, type WriteAction } from './actions.js';
import { DEFAULT_DATA_EXPIRY, expiryTime, type EndpointLike, type OptimisticSnapshot } from './endpoint.js';
import type { Optimistic } from './Optimistic.js';
import type { Selectors } from './selectors.js';

export interface OptimisticDeps {
  slice(rootState: unknown): CacheState;
  selectors: Selectors;
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
  const snap: OptimisticSnapshot = {
    get: (queryable, ...readArgs) => deps.selectors.query(deps.slice(getState()), queryable, readArgs) as never,
    fetchedAt,
  };
  const value = guess.call(endpoint, snap, ...(args as never[]));
  if (value === undefined) return undefined;
  const now = Date.now();
  // The guess's rows carry the request's own start stamp: a write that started later wins over
  // them, and the answer (with the same stamp) replaces them.
  const meta = {
    fetchedAt,
    date: now,
    expiresAt: expiryTime(now, endpoint.dataExpiryLength ?? DEFAULT_DATA_EXPIRY, 'dataExpiryLength'),
  };
  const payload = deps.ledger.add(
    deps.slice(getState()),
    { endpoint, schema: endpoint.schema, args, value, meta },
    deps.normalizeOptions,
  );
  return writeAction(ActionTypes.optimistic, deps.reducerPath, payload, {
    key: endpoint.key(...args),
    start: fetchedAt,
  });
}
