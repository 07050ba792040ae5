/**
 * The read without a memo, for code that reads once: a server render, a script, a test. It builds
 * nothing a later read could reuse, so it is cheaper than a first memoized read, and two calls
 * give equal values, never the same objects (docs/architecture.md, "Reads").
 */

import { denormalize as denormalizePlain } from '../../denormalize/denormalize.js';
import { INVALID } from '../../schema/contract.js';
import type { Denormalize } from '../../schema/types.js';
import type { CacheState } from '../../base/state.js';
import { maxDepthOf } from '../cacheOptions.js';
import { givenSlice } from '../slice/sliceReader.js';

export interface DenormalizeOptions {
  /** Entities nested deeper than this are left as their stored refs (default 64, as createCache). */
  maxEntityDepth?: number;
}

/**
 * `input` (a stored result: `state.endpoints[key]`, or what `normalize` returned) read back by
 * `schema` against the cache slice `state`. `args` are the request's (lenses, Collection pks).
 * `undefined` when the value is missing or reads as deleted.
 *
 * @example
 * ```ts
 * const slice = store.getState().cache;
 * const posts = denormalize(getPosts.schema, slice.endpoints[getPosts.key()], [], slice);
 * ```
 */
export function denormalize<S>(
  schema: S,
  input: unknown,
  args: readonly unknown[],
  state: CacheState,
  options: DenormalizeOptions = {},
): Denormalize<S> | undefined {
  const live = givenSlice(state, 'denormalize');
  const maxEntityDepth = maxDepthOf(options.maxEntityDepth, 'denormalize');
  const value = denormalizePlain(schema, input, args, live.entities, { maxEntityDepth });
  return value === INVALID ? undefined : (value as Denormalize<S>);
}
