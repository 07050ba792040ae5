/**
 * A confirmed write of one store (docs/mutations.md, "How guesses are rebased"): computed against
 * the confirmed state through the store's optimistic ledger, which writes the pending guesses over
 * its result again, and dispatched as one action when it changes anything. Answers, `set`,
 * invalidations and sweeps all write this way.
 */

import type { UnknownAction } from '@reduxjs/toolkit';
import type { CacheState } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import { writeAction, type ActionType, type WritePayload } from '../slice/actions.js';
import type { Optimistic } from '../features/optimistic/Optimistic.js';

/** What a cache's confirmed writes share: its slice reader, normalize options and reducerPath. */
export interface WriteParts {
  slice(rootState: unknown): CacheState;
  normalizeOptions: NormalizeOptions;
  reducerPath: string;
}

type ActionMeta = { key?: string; start?: number };

/** The store a write is made in, and its ledger. */
export interface WriteTarget {
  ledger: Optimistic;
  dispatch(action: UnknownAction): unknown;
  getState(): unknown;
}

/**
 * Runs `compute` against the confirmed state (`visible` is what the store shows) and dispatches
 * the result as one `type` action. Returns what `compute` returned; when it throws, nothing is
 * written or recorded.
 */
export function confirmedWrite<T extends WritePayload>(
  parts: WriteParts,
  target: WriteTarget,
  type: ActionType,
  compute: (confirmed: CacheState, visible: CacheState) => T | undefined,
  /** The action's meta (or how to tell it from what `compute` returned). */
  meta: ActionMeta | ((computed: T | undefined) => ActionMeta) = {},
): T | undefined {
  const visible = parts.slice(target.getState());
  const { computed, payload } = target.ledger.write(
    visible,
    confirmed => compute(confirmed, visible),
    parts.normalizeOptions,
  );
  if (payload.patches.length > 0)
    target.dispatch(
      writeAction(
        type,
        parts.reducerPath,
        payload,
        typeof meta === 'function' ? meta(computed) : meta,
      ) as unknown as UnknownAction,
    );
  return computed;
}
