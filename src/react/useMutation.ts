/** useMutation: a mutation's trigger and its state in this component (docs/useMutation.md). */

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import type { CreateArgs, CreatedItem, CreatedList, IsCreate, ListBody, OneBody } from '../store/types.js';
import { useCacheContext } from './CacheProvider.js';

/** The state of the last call of a `useMutation` trigger in this component. */
export interface MutationState<T> {
  /** True while the last call is in flight. */
  pending: boolean;
  /** The last call's error, until the next call or `reset()`. */
  error: Error | undefined;
  /** The last call's answer, read back through the endpoint's schema. */
  data: T | undefined;
  /** Back to the initial state; the answer of a call in flight no longer changes it. */
  reset(): void;
}

/**
 * `trigger(...args)`: runs the endpoint through `cache.fetch` and resolves to its data. A create
 * (`push`, `unshift`) resolves to one item when one object is sent, to a list when a list is
 * (docs/useMutation.md). Overloads rather than a generic over the args, so a call's params are
 * still checked for unknown keys.
 */
export type MutationTrigger<E extends EndpointLike> =
  IsCreate<E> extends true
    ? {
        (...args: CreateArgs<E, ListBody<E>>): Promise<CreatedList<E>>;
        (...args: CreateArgs<E, OneBody<E>>): Promise<CreatedItem<E>>;
        (...args: ArgsOf<E>): Promise<ResponseData<E>>;
      }
    : (...args: ArgsOf<E>) => Promise<ResponseData<E>>;

/** `[trigger, state]`: the endpoint's trigger and the state of its last call in this component. */
export type UseMutationResult<E extends EndpointLike> = [
  trigger: MutationTrigger<E>,
  state: MutationState<ResponseData<E>>,
];

interface Snapshot {
  pending: boolean;
  error: Error | undefined;
  data: unknown;
}

const IDLE: Snapshot = { pending: false, error: undefined, data: undefined };

/**
 * Returns a trigger for `endpoint` and the state of its last call in this component. The trigger
 * runs `cache.fetch(endpoint, ...args)` (so an optimistic value shows at once, docs/mutations.md)
 * and returns its promise: it resolves to the data, or rejects with the error, which also becomes
 * `state.error`. Nothing is thrown to an error boundary. After the component unmounts, answers
 * change nothing in it (the cache still stores them). The trigger is the same function while the
 * endpoint is.
 *
 * @example
 * ```tsx
 * const [create, { pending, error }] = useMutation(createPost);
 * <button disabled={pending} onClick={() => create({}, { title }).catch(() => {})}>Add</button>
 * {error && <p role="alert">{error.message}</p>}
 * ```
 */
export function useMutation<E extends EndpointLike>(endpoint: E): UseMutationResult<E> {
  const cache = useCacheContext('useMutation');
  const store = useStore();
  const [snapshot, setSnapshot] = useState<Snapshot>(IDLE);
  // Only the last call's outcome is shown; a reset or an unmount ends what earlier calls may change.
  const call = useRef(0);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const trigger = useCallback(
    (...args: ArgsOf<E>): Promise<ResponseData<E>> => {
      const id = ++call.current;
      const show = (next: Snapshot): void => {
        if (mounted.current && call.current === id) setSnapshot(next);
      };
      if (mounted.current) {
        setSnapshot(previous =>
          previous.pending && previous.error === undefined
            ? previous
            : { ...previous, pending: true, error: undefined },
        );
      }
      const fetch = cache.controller(store).fetch as (endpoint: E, ...args: ArgsOf<E>) => Promise<ResponseData<E>>;
      const request = fetch(endpoint, ...args);
      return request.then(
        data => {
          show({ pending: false, error: undefined, data });
          return data;
        },
        (error: unknown) => {
          show({ pending: false, error: error as Error, data: undefined });
          throw error;
        },
      );
    },
    [cache, store, endpoint],
  );
  const reset = useCallback(() => {
    call.current++;
    setSnapshot(IDLE);
  }, []);
  const state = useMemo(() => ({ ...snapshot, reset }) as MutationState<ResponseData<E>>, [snapshot, reset]);
  // One function; its overloads (MutationTrigger) type each call's answer by the body it sends.
  return [trigger as MutationTrigger<E>, state];
}
