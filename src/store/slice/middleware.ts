/**
 * How a cache mounts in a store: its middleware (made once per store as it is mounted: it makes
 * the store's runtime), the marker of the cache's thunks, which it runs, the RUNTIMES action it
 * answers, and the one-cache-per-reducerPath check below.
 */

import type { Middleware, MiddlewareAPI, UnknownAction } from '@reduxjs/toolkit';
import { type DevText, setupError } from '../../base/errors.js';

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

/**
 * The check: one cache per `reducerPath` in a store (docs/architecture.md, "One cache per
 * reducerPath"). Each middleware claims its path in its store, in every build; in development each
 * reducer also marks the slices it returns, so a cache finding another's slice throws.
 */
/** What the reducer, the slice reader and the middleware ask of the mount check. */
export interface Mount {
  /** The reducer's result, marked as this cache's slice (or a copy of its own). */
  made<S extends object>(state: S): S;
  /** `state` (found at `state[reducerPath]`), once it is known not to be another cache's slice. */
  check<S>(state: S): S;
  /** The cache's middleware, claiming the reducerPath in each store it is set up in. */
  claiming(middleware: Middleware): Middleware;
}

/**
 * The cache's mount check: all of it in development; in production only the middleware's claim,
 * where the test folds away and the MountCheck class is shaken out of the bundle.
 */
export function mountCheck(reducerPath: string): Mount {
  if (process.env.NODE_ENV !== 'production') return new MountCheck(reducerPath);
  const mount: Mount = { made: same, check: same, claiming: middleware => claimed(mount, reducerPath, middleware) };
  return mount;
}

const same = <S>(state: S): S => state;

/** Per store (its `getState`), the cache whose middleware claimed each reducerPath. */
const claims = new WeakMap<object, Map<string, object>>();

/** `middleware`, first claiming `reducerPath` for `owner` in each store it is set up in. */
function claimed(owner: object, reducerPath: string, middleware: Middleware): Middleware {
  return api => {
    const paths = claims.get(api.getState) ?? new Map<string, object>();
    claims.set(api.getState, paths);
    if ((paths.get(reducerPath) ?? owner) !== owner) {
      throw conflict(
        reducerPath,
        process.env.NODE_ENV !== 'production' &&
          'Two caches with the same reducerPath have their middleware in one store',
      );
    }
    paths.set(reducerPath, owner);
    return middleware(api);
  };
}

function conflict(reducerPath: string, what: DevText): Error {
  return setupError(
    'DUPLICATE_REDUCER_PATH',
    process.env.NODE_ENV !== 'production' && [
      `${what} (${JSON.stringify(reducerPath)}): their write actions and reads would mix, each applying the other's writes.`,
      `Give each cache its own reducerPath and mount it there: createCache({ reducerPath: 'other' }) with ` +
        `configureStore({ reducer: { other: other.reducer } }), or use one cache for both.`,
    ],
    reducerPath,
  );
}

/** The cache whose reducer last returned each slice state (development only). */
const makers = new WeakMap<object, MountCheck>();

export class MountCheck implements Mount {
  /** Whether this cache's reducer has returned a slice yet (it is mounted in some store). */
  private mounted = false;

  constructor(private readonly reducerPath: string) {}

  /** The reducer's result, marked as this cache's slice. */
  made<S extends object>(state: S): S {
    this.mounted = true;
    const maker = makers.get(state);
    if (maker === this) return state;
    // Another cache's slice handed to this reducer: a reducer replaced by hot reloading, or one
    // state object preloaded into the stores of two caches. This cache takes a shallow copy of
    // its own (once), so the other cache's slice stays the other cache's.
    const own = maker === undefined ? state : { ...state };
    makers.set(own, this);
    return own;
  }

  /**
   * Throws when `state` (found at `state[reducerPath]`) is another cache's slice and this cache's
   * reducer is mounted too: then the two mix. A cache mounted nowhere only reads (a second reader
   * over a store's state, with memo caches of its own) and is let through.
   */
  check<S>(state: S): S {
    if (!this.mounted) return state;
    const maker = typeof state === 'object' && state !== null ? makers.get(state) : undefined;
    if (maker !== undefined && maker !== this) {
      throw conflict(
        this.reducerPath,
        process.env.NODE_ENV !== 'production' &&
          'The slice at state.' +
            this.reducerPath +
            ' was made by the reducer of another cache with the same reducerPath',
      );
    }
    return state;
  }

  /** The cache's middleware, claiming the reducerPath in each store it is set up in. */
  claiming(middleware: Middleware): Middleware {
    return claimed(this, this.reducerPath, middleware);
  }
}
