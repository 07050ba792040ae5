/**
 * The write without a store, for code that wants the patches a response would make: a test, a
 * script, a server that hands patches on. It checks what it is given as the cache's writes are
 * checked, and reads a slice restored from JSON as the live one (docs/store.md, "Writing once").
 */

import { describe, setupError } from '../../base/errors.js';
import type { WriteMeta } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';
import { normalize as normalizePlain, type Normalized, type NormalizeOptions } from '../../normalize/normalize.js';
import { maxDepthOf } from '../cacheOptions.js';
import { DEFAULT_EXPIRY } from '../endpoint.js';
import { givenSlice } from '../slice/sliceReader.js';

/**
 * Normalizes `input` by `schema` against the cache slice `state`, for `args`: the result and the
 * Immer patches (and their inverses) that would write it. Pure: `state` is not changed. `meta`
 * (`{ fetchedAt, date, expiresAt }`) defaults to now and the default expiry (a minute); `options`
 * to createCache's (`maxEntityDepth: 64`). Throws a coded error, and returns nothing, on bad input.
 *
 * @example
 * ```ts
 * const { result, patches } = normalize(Post, { id: '1', title: 'Hi' }, [], store.getState().cache);
 * ```
 */
export function normalize(
  schema: unknown,
  input: unknown,
  args: readonly unknown[],
  state: CacheState,
  meta?: WriteMeta,
  options?: Partial<NormalizeOptions>,
): Normalized {
  const live = givenSlice(state, 'normalize');
  if (!Array.isArray(args)) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `normalize(schema, input, args, state) takes args as an array, but received ${describe(args)}.`,
        'Pass the request\'s args as a list, e.g. normalize(getPost.schema, response, [{ id: "1" }], slice), or [] for none.',
      ],
    );
  }
  const maxEntityDepth = maxDepthOf(options?.maxEntityDepth, 'normalize');
  return normalizePlain(schema, input, args, live, metaOf(meta), { ...options, maxEntityDepth });
}

function metaOf(meta: WriteMeta | undefined): WriteMeta {
  if (meta === undefined) {
    const now = Date.now();
    return { fetchedAt: now, date: now, expiresAt: now + DEFAULT_EXPIRY.dataExpiryLength };
  }
  const { fetchedAt, date, expiresAt } = (meta ?? {}) as Partial<WriteMeta>;
  if ([fetchedAt, date, expiresAt].every(value => Number.isSafeInteger(value))) return meta;
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `normalize() was given the meta ${describe(meta)}; the meta of a write is { fetchedAt, date, expiresAt }, each a whole number of milliseconds.`,
      'Leave it out (now, expiring in a minute), or pass e.g. { fetchedAt: startedAt, date: Date.now(), expiresAt: Date.now() + 60_000 }.',
    ],
  );
}
