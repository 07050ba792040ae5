/**
 * The one write of a settled request (and of `resolve`, `setResponse`, `setError`): the answer or
 * the error for its key, taking the place of the request's optimistic guess, as a confirmed write
 * (docs/mutations.md). A request's answer is stamped by its start (a read) or its arrival (a
 * mutation): docs/architecture.md, "Ordering".
 */

import { isErrorLike } from '../../base/errors.js';
import type { CacheState } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import { checkStamp, type EndpointLike, type ExpiryDefaults } from '../endpoint.js';
import type { Selectors } from '../reads/selectors.js';
import { withHeldPages } from '../runtime/pages.js';
import { ActionTypes, type ActionType, type WritePayload } from '../slice/actions.js';
import type { Resolved, ResolveInput } from '../types.js';
import type { ActionMeta } from './confirmedWrite.js';
import { computeResolve } from './compute.js';

/** What the write of a settled request needs of the store's runtime (runtime/StoreRuntime.ts). */
export interface ResolveTarget {
  readonly parts: { readonly normalizeOptions: NormalizeOptions; readonly expiry: ExpiryDefaults };
  readonly selectors: Selectors;
  settling(endpoint: EndpointLike, start: number): void;
  written(key: string, endpoint: EndpointLike, args: readonly unknown[]): void;
  write<T extends WritePayload>(
    type: ActionType,
    compute: (confirmed: CacheState, visible: CacheState) => T | undefined,
    meta?: ActionMeta | ((computed: T | undefined) => ActionMeta),
  ): T | undefined;
}

/** Writes `input` for `endpoint`, returning what was written (undefined when nothing was). Throws a bad stamp, or what storing the answer threw. */
export function resolveWrite(
  runtime: ResolveTarget,
  endpoint: EndpointLike,
  input: ResolveInput,
): Resolved | undefined {
  checkStamp(input.fetchedAt, 'fetchedAt');
  if (input.start !== undefined) checkStamp(input.start, 'start');
  // The answer to an optimistic request takes its guess's place (docs/mutations.md): the guess
  // goes in the same write, even when the answer cannot be stored.
  runtime.settling(endpoint, input.start ?? input.fetchedAt);
  let failure: { error: unknown } | undefined;
  const type = input.error === undefined ? ActionTypes.resolve : ActionTypes.setError;
  const resolved = runtime.write(
    type,
    // A list's record of the pages it holds follows its writes (pages.ts).
    state => {
      try {
        const computed = computeResolve(
          state,
          endpoint,
          input,
          Date.now(),
          runtime.parts.normalizeOptions,
          runtime.parts.expiry,
        );
        // Known before the dispatch: a store subscriber reading the error while it is told gets
        // the original (a NetworkError with its body), not one rebuilt from the record.
        if (computed?.record && isErrorLike(computed.error))
          runtime.selectors.errors.set(computed.record, computed.error);
        return withHeldPages(state, endpoint, input, computed);
      } catch (error) {
        failure = { error };
        return undefined;
      }
    },
    written => ({ key: written?.key, start: input.fetchedAt }),
  );
  if (failure) throw failure.error;
  // The response's time in the cache starts now (docs/gc.md).
  if (resolved) runtime.written(resolved.key, endpoint, input.args);
  return resolved;
}

/**
 * An aborted request (runtime/sending.ts, `isCancellation`): its optimistic guess goes, in a write
 * of its own when one is pending; nothing is written for its key.
 */
export function cancelWrite(runtime: ResolveTarget, endpoint: EndpointLike, start: number): void {
  runtime.settling(endpoint, start);
  runtime.write(ActionTypes.optimistic, () => undefined, { start });
}
