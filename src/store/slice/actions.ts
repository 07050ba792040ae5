/**
 * The cache's actions. Every write is one of these: a plain, serializable action whose payload
 * is the Immer patch list that the reducer applies, with the inverse patches that undo it.
 */

import type { Patch } from '../../base/patch.js';

/** Action types, one per kind of write, so Redux DevTools shows what happened. */
export const ActionTypes = {
  set: 'cache/set',
  resolve: 'cache/resolve',
  setError: 'cache/setError',
  invalidate: 'cache/invalidate',
  expireAll: 'cache/expireAll',
  reset: 'cache/reset',
  /** A mutation's optimistic value, written as its request starts (docs/mutations.md). */
  optimistic: 'cache/optimistic',
  /** A garbage-collection sweep (docs/gc.md). */
  gc: 'cache/gc',
} as const;

export type ActionType = (typeof ActionTypes)[keyof typeof ActionTypes];

const TYPES = new Set<string>(Object.values(ActionTypes));

export interface WritePayload {
  patches: Patch[];
  inversePatches: Patch[];
}

export interface WriteAction {
  type: ActionType;
  payload: WritePayload;
  /** `reducerPath` picks the cache the action is for, so several caches can share a store. */
  meta: WriteActionMeta;
}

export interface WriteActionMeta {
  reducerPath: string;
  /** The request key, for writes of one endpoint's response or error. */
  key?: string;
  /** The write's start stamp (StoreRuntime.stamp), for writes that record one. */
  start?: number;
}

export function writeAction(
  type: ActionType,
  reducerPath: string,
  payload: WritePayload,
  extra: { key?: string | undefined; start?: number | undefined } = {},
): WriteAction {
  const meta: WriteActionMeta = { reducerPath };
  if (extra.key !== undefined) meta.key = extra.key;
  if (extra.start !== undefined) meta.start = extra.start;
  return { type, payload, meta };
}

export function isWriteAction(action: unknown, reducerPath: string): action is WriteAction {
  const candidate = action as Partial<WriteAction> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.type === 'string' &&
    TYPES.has(candidate.type) &&
    candidate.meta?.reducerPath === reducerPath
  );
}
