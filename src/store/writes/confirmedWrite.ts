/**
 * A confirmed write of one store (docs/mutations.md, "How guesses are rebased"): computed against
 * the confirmed state and dispatched as one action when it changes anything. Answers, `set`,
 * invalidations and sweeps all write this way. With optimistic updates the store's writer (their
 * ledger) computes it against the confirmed state under the pending guesses and writes the guesses
 * over its result again; without, the confirmed state is the slice itself.
 */

import type { UnknownAction } from '@reduxjs/toolkit';
import type { CacheState } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import type { ConfirmedWriter } from '../runtime/Feature.js';
import { writeAction, type ActionType, type WritePayload } from '../slice/actions.js';
import type { StoreLike } from '../types.js';

/** What a cache's confirmed writes share: its slice reader, normalize options and reducerPath. */
export interface WriteParts {
  slice(rootState: unknown): CacheState;
  normalizeOptions: NormalizeOptions;
  reducerPath: string;
}

/** A write action's meta: the request key and the write's start stamp, when it has them. */
export type ActionMeta = { key?: string | undefined; start?: number | undefined };

/**
 * Runs `compute` against the confirmed state (`visible` is what the store shows) and dispatches
 * the result as one `type` action. Returns what `compute` returned; when it throws, nothing is
 * written or recorded.
 */
export function confirmedWrite<T extends WritePayload>(
  parts: WriteParts,
  writer: ConfirmedWriter | undefined,
  store: StoreLike,
  type: ActionType,
  compute: (confirmed: CacheState, visible: CacheState) => T | undefined,
  /** The action's meta (or how to tell it from what `compute` returned). */
  meta: ActionMeta | ((computed: T | undefined) => ActionMeta) = {},
): T | undefined {
  const visible = parts.slice(store.getState());
  let computed: T | undefined;
  let payload: WritePayload | undefined;
  if (writer)
    ({ computed, payload } = writer.write(visible, confirmed => compute(confirmed, visible), parts.normalizeOptions));
  else payload = computed = compute(visible, visible);
  if (payload && payload.patches.length > 0)
    store.dispatch(
      writeAction(
        type,
        parts.reducerPath,
        { patches: payload.patches, inversePatches: payload.inversePatches },
        typeof meta === 'function' ? meta(computed) : meta,
      ) as unknown as UnknownAction,
    );
  return computed;
}
