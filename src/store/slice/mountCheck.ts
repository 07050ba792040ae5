/**
 * One cache per `reducerPath` in a store. A cache's write actions name its `reducerPath`, and its
 * reads look at `state[reducerPath]`: two caches created with the same path and mounted under
 * different keys would apply each other's writes, and one would read the other's slice. Both
 * mistakes are set-up errors, caught in two places:
 *
 * - at set-up: each cache's middleware claims its path in its store when the store is made, so a
 *   second cache's middleware with the same path makes `configureStore` throw;
 * - on use: each cache's reducer marks the slice states it returns, so a mounted cache that
 *   finds at `state[reducerPath]` a slice another cache's reducer made throws before reading or
 *   writing. A slice no reducer made (a state built by hand, or restored and not yet passed
 *   through a reducer) is not refused, nor is a cache whose reducer is mounted nowhere (it can
 *   only read, and a second reader over one state is legitimate).
 *
 * The reducer marks every state it returns, also one it was handed unchanged; handed another
 * cache's slice (a reducer replaced by hot reloading, one state object preloaded into the stores
 * of two caches), it returns a shallow copy of its own, so both caches keep reading.
 *
 * The whole check is development-only (`mountCheck` below): whether two caches share a path is
 * fixed by how the application is put together, not by data, so the development build meets it
 * when it creates the store or first reads (docs/production.md, "What production keeps").
 */

import type { Middleware } from '@reduxjs/toolkit';
import { type DevText, ErrorCode, setupError } from '../../base/errors.js';

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
 * The cache's mount check: the real one in development, one that checks nothing in production,
 * where the test folds away and the MountCheck class is shaken out of the bundle.
 */
export function mountCheck(reducerPath: string): Mount {
  return process.env.NODE_ENV !== 'production' ? new MountCheck(reducerPath) : unchecked;
}

const unchecked: Mount = { made: state => state, check: state => state, claiming: middleware => middleware };

/** The cache whose reducer last returned each slice state. */
const makers = new WeakMap<object, MountCheck>();
/** Per store (its `getState`), the cache whose middleware claimed each reducerPath. */
const claims = new WeakMap<object, Map<string, MountCheck>>();

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
      throw this.conflict(
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
    return api => {
      this.claim(api.getState);
      return middleware(api);
    };
  }

  /** Claims the reducerPath in the store whose `getState` this is. */
  private claim(getState: object): void {
    let paths = claims.get(getState);
    if (!paths) claims.set(getState, (paths = new Map()));
    const holder = paths.get(this.reducerPath);
    if (holder !== undefined && holder !== this) {
      throw this.conflict(
        process.env.NODE_ENV !== 'production' &&
          'Two caches with the same reducerPath have their middleware in one store',
      );
    }
    paths.set(this.reducerPath, this);
  }

  private conflict(what: DevText): Error {
    const path = JSON.stringify(this.reducerPath);
    return setupError(
      ErrorCode.DUPLICATE_REDUCER_PATH,
      process.env.NODE_ENV !== 'production' && [
        `${what} (${path}): their write actions and reads would mix, each applying the other's writes.`,
        `Give each cache its own reducerPath and mount it there: createCache({ reducerPath: 'other' }) with ` +
          `configureStore({ reducer: { other: other.reducer } }), or use one cache for both.`,
      ],
      this.reducerPath,
    );
  }
}
