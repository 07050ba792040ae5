/**
 * `cache.resolve`, the one write of a settled request (and of `setResponse`, `setError`): the
 * answer or the error for its key, taking the place of the request's optimistic guess, computed
 * against the confirmed state through the store's ledger (docs/mutations.md). A request's answer
 * is stamped by its start (a read) or its arrival (a mutation): docs/architecture.md, "Ordering".
 */

import { isErrorLike } from '../../base/errors.js';
import { ActionTypes } from '../slice/actions.js';
import { confirmedWrite, type WriteParts } from './confirmedWrite.js';
import { checkStamp, type EndpointLike } from '../endpoint.js';
import { withHeldPages } from '../runtime/pages.js';
import { thunk, type CacheThunk } from '../slice/reducer.js';
import type { Selectors } from '../reads/selectors.js';
import type { StoreRuntime } from '../runtime/StoreRuntime.js';
import type { Resolved, ResolveInput, StoreLike } from '../types.js';
import { computeResolve } from './compute.js';

export interface ResolveParts extends WriteParts {
  selectors: Selectors;
  runtimeOf(store: StoreLike): StoreRuntime;
}

export function createResolve(parts: ResolveParts) {
  const { selectors, normalizeOptions, runtimeOf } = parts;
  return (endpoint: EndpointLike, input: ResolveInput): CacheThunk<Resolved | undefined> =>
    thunk((dispatch, getState) => {
      checkStamp(input.fetchedAt, 'fetchedAt');
      if (input.start !== undefined) checkStamp(input.start, 'start');
      const runtime = runtimeOf({ getState, dispatch });
      const ledger = runtime.optimistic;
      // The answer to an optimistic request takes its guess's place (docs/mutations.md): the
      // guess goes in the same write, even when the answer cannot be stored.
      ledger.settle(endpoint, input.start ?? input.fetchedAt);
      let failure: { error: unknown } | undefined;
      const type = input.error === undefined ? ActionTypes.resolve : ActionTypes.setError;
      const resolved = confirmedWrite(
        parts,
        { ledger, dispatch, getState },
        type,
        // A list's record of the pages it holds follows its writes (pages.ts).
        state => {
          try {
            return withHeldPages(
              state,
              endpoint,
              input,
              computeResolve(state, endpoint, input, Date.now(), normalizeOptions),
            );
          } catch (error) {
            failure = { error };
            return undefined;
          }
        },
        written => ({ key: written?.key, start: input.fetchedAt }),
      );
      if (resolved?.record && isErrorLike(resolved.error)) selectors.errors.set(resolved.record, resolved.error);
      if (failure) throw failure.error;
      // The response's time in the cache starts now (docs/gc.md).
      if (resolved) runtime.collector?.written(resolved.key, endpoint, input.args);
      return resolved;
    });
}
