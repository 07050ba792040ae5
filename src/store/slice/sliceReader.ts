/**
 * The reader that finds the cache's slice in a root state, in the live shape; and the slice handed
 * to the exported `normalize` and `denormalize`, in the live shape.
 */

import { describe, type DevText, setupError } from '../../base/errors.js';
import type { CacheState } from '../../base/state.js';
import type { Mount } from './middleware.js';
import { liveSlice } from './reducer.js';

/**
 * Finds the cache's slice in a root state, in the live shape (a restored one is converted once).
 * The slices read are remembered weakly, so a slice read again costs one lookup, and the reader
 * keeps no slice alive: not the one a reset replaced, nor an old one after writes without reads.
 */
export function createSliceReader(reducerPath: string, mount: Mount): (rootState: unknown) => CacheState {
  const read = new WeakMap<object, CacheState>();
  const notASlice = (what: DevText): never => {
    throw setupError(
      'CACHE_NOT_MOUNTED',
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
        'CACHE_NOT_MOUNTED',
        process.env.NODE_ENV !== 'production' && [
          `The cache slice was not found at state.${reducerPath}.`,
          `Mount it: configureStore({ reducer: { ${reducerPath}: cache.reducer, ... } }).`,
        ],
        reducerPath,
      );
    }
    // (Past the shape check, `state` is a slice.)
    const live = liveSlice(mount.check(state as CacheState), notASlice);
    read.set(state as CacheState, live);
    return live;
  };
}

/** The slice handed to the exported `normalize` or `denormalize`, live; anything else is CACHE_NOT_MOUNTED. */
export function givenSlice(state: CacheState, caller: string): CacheState {
  return liveSlice(state, what => {
    throw setupError(
      'CACHE_NOT_MOUNTED',
      process.env.NODE_ENV !== 'production' && [
        `${caller}() expected a cache slice as its state, but received ${describe(state)}: ${what}.`,
        'Pass the slice itself, e.g. store.getState().cache (or a JSON copy of it).',
      ],
    );
  });
}
