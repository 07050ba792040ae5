/**
 * The cache's middleware (made once per store as it is mounted: it makes the store's runtime), the
 * marker of the cache's thunks, which it runs, and the RUNTIMES action it answers.
 */

import type { Middleware, MiddlewareAPI, UnknownAction } from '@reduxjs/toolkit';

/** A thunk of a cache: dispatch it with `store.dispatch(...)`. */
export type CacheThunk<R = void> = (dispatch: (action: UnknownAction) => unknown, getState: () => unknown) => R;

const THUNK = Symbol('lenscache.thunk');

/** Marks `run` as a cache thunk, which the cache's middleware runs. */
export function thunk<R>(run: CacheThunk<R>): CacheThunk<R> {
  return Object.assign(run, { [THUNK]: true });
}

/** The action that asks each cache's middleware in a store for its runtime (runtimesIn). */
export const RUNTIMES = 'lenscache/runtimes';

/** What a cache's middleware keeps for one store: its runtime, and what runs after each action. */
export interface Mounted {
  runtime: unknown;
  after(): void;
}

/**
 * A cache's middleware: made once per store as it is mounted (`mount` makes the store's runtime),
 * it runs the cache's thunks itself, so they work in stores without the thunk middleware, and
 * answers RUNTIMES with its runtime, passing the action on to the caches after it. A new
 * function per cache (RTK refuses the same middleware twice in one store).
 */
export function createMiddleware(mount: (api: MiddlewareAPI) => Mounted): Middleware {
  return api => {
    const { runtime, after } = mount(api);
    after();
    return next => action => {
      if (typeof action === 'function' && (action as { [THUNK]?: boolean })[THUNK]) {
        return (action as CacheThunk<unknown>)(api.dispatch as (action: UnknownAction) => unknown, api.getState);
      }
      if ((action as UnknownAction | undefined)?.type === RUNTIMES) {
        const after = next(action);
        return [runtime, ...(Array.isArray(after) ? after : [])];
      }
      const result = next(action);
      after();
      return result;
    };
  };
}
