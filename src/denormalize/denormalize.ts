/**
 * Reads without a memo: a stored ref (or a key built from the store) and its schema → the value
 * users see, walked over the plain delegate. Nothing is kept after the call, so two calls give
 * equal values, never the same objects; within one call a row read twice gives one object.
 *
 * The memoized reads (memo/Reader.ts) must always deep-equal these: the property tests use them
 * as the oracle.
 */

import { INVALID } from '../schema/contract.js';
import { PlainRead, type Entities } from './PlainRead.js';

export interface DenormalizeOptions {
  /** Entities nested deeper than this are left as their stored refs (default 64, as createCache). */
  maxEntityDepth?: number;
}

const DEFAULT_MAX_ENTITY_DEPTH = 64;

/**
 * `input` denormalized by `schema` against `entities` (the state's `entities`). `args` are the
 * read's args (lenses, Query's `process`). Returns INVALID when the value reads as deleted.
 */
export function denormalize(
  schema: unknown,
  input: unknown,
  args: readonly unknown[],
  entities: Entities,
  options: DenormalizeOptions = {},
): unknown {
  if (input === undefined || input === INVALID) return input;
  return new PlainRead(entities, args, options.maxEntityDepth ?? DEFAULT_MAX_ENTITY_DEPTH).unvisit(schema, input);
}

/**
 * A read without a stored result (what `selectQuery` answers): the key is built from the store
 * and args, then denormalized. `undefined` when not in the cache; INVALID when deleted.
 */
export function denormalizeQuery(
  schema: unknown,
  args: readonly unknown[],
  entities: Entities,
  options: DenormalizeOptions = {},
): unknown {
  const read = new PlainRead(entities, args, options.maxEntityDepth ?? DEFAULT_MAX_ENTITY_DEPTH);
  const key = read.queryKey(schema, args);
  if (key === undefined || key === INVALID) return key;
  return read.unvisit(schema, key);
}
