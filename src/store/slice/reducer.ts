/**
 * The slice reducer: applies the cache's write actions, never throws, never corrupts.
 */

import type { Reducer, UnknownAction } from '@reduxjs/toolkit';
import { warn } from '../../base/env.js';
import { type DevText, ErrorCode, setupError, type LensCacheError } from '../../base/errors.js';
import type { Patch } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';
import { isWriteAction, type WriteAction } from './actions.js';
import { applyPatches } from './applyPatches.js';
import { initialState } from './initialState.js';
import type { Mount } from './mountCheck.js';
import type { SliceFacts } from './SliceFacts.js';
import { markLive, toLiveSlice } from './sliceShape.js';

/**
 * The slice reducer. It never throws and never corrupts: a state restored from JSON is brought to
 * the live shape once, and a write that does not fit the slice is refused whole (INVALID_ACTION,
 * warned in development). `facts` follow from slice to slice as writes land (SliceFacts.ts).
 */
export function createReducer(
  reducerPath: string,
  facts: SliceFacts,
  mount: Mount,
  /** Told each write's slice and the one before it (the read memo follows its slices: MemoOwners.ts). */
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
      const patches = (action.payload as Partial<WriteAction['payload']> | undefined)?.patches as Patch[];
      const next = markLive(applyPatches(current, patches));
      facts.carry(current, next, action.meta.start, patches);
      carry?.(current, next);
      return mount.made(next);
    } catch (error) {
      if (process.env.NODE_ENV !== 'production')
        warn(`${(error as LensCacheError).code}: ${(error as Error).message}\n(action ${action.type})`);
      return mount.made(current);
    }
  }
}
