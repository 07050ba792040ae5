/**
 * The cache's Redux parts: the slice reducer, the middleware that runs the cache's thunks, and
 * the reader that finds the slice in a root state. createCache assembles them.
 */

import type { Middleware, MiddlewareAPI, Reducer, UnknownAction } from '@reduxjs/toolkit';
import { warn } from '../../base/env.js';
import { type DevText, ErrorCode, setupError, type LensCacheError } from '../../base/errors.js';
import type { CacheState } from '../../base/state.js';
import { isWriteAction, type WriteAction } from './actions.js';
import { applyPatches } from './applyPatches.js';
import { initialState } from './initialState.js';
import { markLive, toLiveSlice } from './sliceShape.js';
import type { Mount } from './mountCheck.js';
import type { HighWater } from '../runtime/StartClock.js';

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
 * The slice reducer. It never throws and never corrupts: a state restored from JSON is brought to
 * the live shape once, and a write that does not fit the slice is refused whole (INVALID_ACTION,
 * warned in development). `highWater` follows the highest start stamp from slice to slice.
 */
export function createReducer(
  reducerPath: string,
  highWater: HighWater,
  mount: Mount,
  /** Told each write's slice and the one before it (the store's read memo follows its slices: MemoOwners.ts). */
  carry?: (from: CacheState, to: CacheState) => void,
): Reducer<CacheState> {
  const refuseState = (what: DevText): never => {
    throw setupError(
      ErrorCode.INVALID_ACTION,
      process.env.NODE_ENV !== 'production' && [
        `The state given to the cache reducer at ${reducerPath} is not a cache slice: ${what}. It is left as it is, and reads will fail.`,
        'Restore only state this cache made (a JSON copy of it is fine), or leave the slice out of preloadedState.',
      ],
    );
  };
  // The slice it returned last: another slice's action costs one comparison (most actions are).
  let last: CacheState | undefined;
  return (state = markLive(initialState()), action) => {
    if (state === last && !isWriteAction(action, reducerPath)) return state;
    last = reduce(state, action);
    return last;
  };

  function reduce(state: CacheState, action: UnknownAction): CacheState {
    let current: CacheState;
    try {
      current = toLiveSlice(state, refuseState);
    } catch (error) {
      if (process.env.NODE_ENV !== 'production') warn(`${(error as LensCacheError).code}: ${(error as Error).message}`);
      return state;
    }
    if (!isWriteAction(action, reducerPath)) return mount.made(current);
    try {
      const patches = (action.payload as Partial<WriteAction['payload']> | undefined)?.patches;
      const next = markLive(applyPatches(current, patches as WriteAction['payload']['patches']));
      highWater.carry(current, next, action.meta.start);
      carry?.(current, next);
      return mount.made(next);
    } catch (error) {
      if (process.env.NODE_ENV !== 'production')
        warn(`${(error as LensCacheError).code}: ${(error as Error).message}\n(action ${action.type})`);
      return mount.made(current);
    }
  }
}

/**
 * Finds the cache's slice in a root state, in the live shape (a restored one is converted once).
 * The slices read are remembered weakly, so a slice read again costs one lookup, and the reader
 * keeps no slice alive: not the one a reset replaced, nor an old one after writes without reads.
 */
export function createSliceReader(reducerPath: string, mount: Mount): (rootState: unknown) => CacheState {
  const read = new WeakMap<object, CacheState>();
  const notASlice = (what: DevText): never => {
    throw setupError(
      ErrorCode.CACHE_NOT_MOUNTED,
      process.env.NODE_ENV !== 'production' && [
        `The cache slice at state.${reducerPath} is not a cache slice: ${what}.`,
        'Mount cache.reducer there, and restore only state it made (a JSON copy of it is fine).',
      ],
      reducerPath,
    );
  };
  return rootState => {
    const state = (rootState as Record<string, CacheState> | undefined)?.[reducerPath];
    const known = typeof state === 'object' && state !== null ? read.get(state) : undefined;
    if (known !== undefined) return known;
    // Only a better message: in production a missing slice fails the shape check below, with the
    // same code and detail (docs/production.md).
    if (process.env.NODE_ENV !== 'production' && (!state || typeof state !== 'object' || !state.entities)) {
      throw setupError(
        ErrorCode.CACHE_NOT_MOUNTED,
        process.env.NODE_ENV !== 'production' && [
          `The cache slice was not found at state.${reducerPath}.`,
          `Mount it: configureStore({ reducer: { ${reducerPath}: cache.reducer, ... } }).`,
        ],
        reducerPath,
      );
    }
    // (Past the shape check, `state` is a slice.)
    const live = toLiveSlice(mount.check(state as CacheState), notASlice);
    read.set(state as CacheState, live);
    return live;
  };
}
