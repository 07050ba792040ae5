/**
 * The writes, computed against the current slice before anything is dispatched (docs/store.md, "Writes"):
 * each returns the patches of one action, or throws without touching the store.
 */

import { jsonEqual } from '../../base/json.js';
import { toErrorRecord } from '../../base/errors.js';
import type { WriteMeta } from '../../base/patch.js';
import type { CacheState, EndpointMeta } from '../../base/state.js';
import { normalize, type NormalizeOptions } from '../../normalize/normalize.js';
import { PatchList } from '../../normalize/PatchList.js';
import type { WritePayload } from '../slice/reducer.js';
import type { Resolved, ResolveInput } from '../types.js';
import { initialState } from '../slice/initialState.js';
import { expiryTime, hasSchema, type EndpointLike, type ExpiryDefaults } from '../endpoint.js';

/** `cache.set`: rows only, no endpoint entry, expiring after the cache's `dataExpiryLength`; throws on bad input. */
export function computeSet(
  state: CacheState,
  schema: unknown,
  args: readonly unknown[],
  value: unknown,
  now: number,
  start: number,
  options: NormalizeOptions,
  expiry: ExpiryDefaults,
): WritePayload | undefined {
  const expiresAt = expiryTime(
    now,
    expiry.dataExpiryLength,
    process.env.NODE_ENV !== 'production' && 'dataExpiryLength',
  );
  // A write that started before the last reset is dropped, as an answer is.
  if (start < state.lastReset) return undefined;
  const meta: WriteMeta = { fetchedAt: start, date: now, expiresAt };
  const { patches, inversePatches } = normalize(schema, value, args, state, meta, options);
  return { patches, inversePatches };
}

/**
 * `cache.resolve` (and so `setResponse`, `setError` and fetches): a response's rows, result and
 * meta; or, when `error` is given or normalizing fails, only the request's error record.
 * Returns undefined when the request started before the last reset. The endpoint's expiry
 * lengths win over the cache's `expiry` defaults.
 */
export function computeResolve(
  state: CacheState,
  endpoint: EndpointLike,
  /** The request key of `endpoint` for `input.args`. */
  key: string,
  input: ResolveInput,
  now: number,
  options: NormalizeOptions,
  expiry: ExpiryDefaults,
): Resolved | undefined {
  const { args, fetchedAt } = input;
  if (fetchedAt < state.lastReset) return undefined;
  let error = input.error;
  // Without a schema the response is stored as it is; "no response" is stored as null, so the
  // entry exists and reads as valid (an absent entry would be fetched again, without end).
  const response = input.response === undefined && !hasSchema(endpoint) ? null : input.response;
  if (error === undefined) {
    const expiresAt = expiryTime(
      now,
      endpoint.dataExpiryLength ?? expiry.dataExpiryLength,
      process.env.NODE_ENV !== 'production' && 'dataExpiryLength',
    );
    const meta = { fetchedAt, date: now, expiresAt };
    try {
      const normalized = normalize(
        endpoint.schema,
        response,
        args,
        state,
        // A mutation's answer carries its request's start (or its sending, when it was held):
        // overlapping answers are found by it.
        { ...meta, ...(endpoint.sideEffect && input.start !== undefined && { sent: input.sent ?? input.start }) },
        options,
      );
      if (isOlder(state.meta[key], fetchedAt)) return { key, ...normalized };
      return { key, result: normalized.result, meta, ...withEndpoint(normalized, state, key, normalized.result, meta) };
    } catch (caught) {
      error = caught;
    }
  }
  const record = toErrorRecord(error);
  const list = new PatchList();
  if (!isOlder(state.meta[key], fetchedAt)) {
    const expiresAt = expiryTime(
      now,
      endpoint.errorExpiryLength ?? expiry.errorExpiryLength,
      process.env.NODE_ENV !== 'production' && 'errorExpiryLength',
    );
    list.set(['meta', key], { fetchedAt, date: now, expiresAt, error: record }, state.meta[key]);
  }
  return { key, ...list.written(), error, record };
}

/** An older response's rows still merge row by row, but it never replaces the entry. */
function isOlder(meta: EndpointMeta | undefined, fetchedAt: number): boolean {
  return meta !== undefined && fetchedAt < meta.fetchedAt;
}

function withEndpoint(
  normalized: WritePayload,
  state: CacheState,
  key: string,
  result: unknown,
  meta: EndpointMeta,
): WritePayload {
  const list = new PatchList();
  const stored = state.endpoints[key];
  if (result === undefined) list.remove(['endpoints', key], stored);
  else if (stored === undefined || !jsonEqual(stored, result)) list.set(['endpoints', key], result, stored);
  list.set(['meta', key], meta, state.meta[key]);
  return list.written(normalized);
}

/**
 * `invalidate` / `invalidateAll`: the results go, and the entries are marked invalidated as of
 * the stamp `start`, so an answer to a request that started earlier cannot make them valid again.
 */
export function computeInvalidate(state: CacheState, keys: Iterable<string>, now: number, start: number): WritePayload {
  const list = new PatchList();
  for (const key of keys) {
    const previous = state.meta[key];
    if (previous?.invalidated && state.endpoints[key] === undefined) continue;
    list.remove(['endpoints', key], state.endpoints[key]);
    // Stamped by the store's start clock: later than every request that started before it, and
    // earlier than every one that starts after, whatever the wall clocks (StoreRuntime.stamp).
    list.set(['meta', key], { fetchedAt: start, date: now, expiresAt: 0, invalidated: true }, previous);
  }
  return list.written();
}

/** `expireAll`: present responses become stale (refetched without suspense). */
export function computeExpire(state: CacheState, testKey: (key: string) => boolean): WritePayload {
  const list = new PatchList();
  for (const key of Object.keys(state.meta)) {
    const previous = state.meta[key]!;
    if (testKey(key) && previous.expiresAt !== 1 && !previous.invalidated)
      list.set(['meta', key], { ...previous, expiresAt: 1 }, previous);
  }
  return list.written();
}

/** `resetEntireStore`: the initial state, remembering its start stamp, so older requests are dropped. */
export function computeReset(state: CacheState, start: number): WritePayload {
  return {
    patches: [{ op: 'replace', path: [], value: initialState(start) }],
    inversePatches: [{ op: 'replace', path: [], value: state }],
  };
}
