/**
 * `cache.set(schema, ...args, updater)` (docs/store.md, "Updaters"): the updater receives an
 * Immer draft of the cached value and may change it in place or return a new value, as with
 * Immer's `produce`. Only what it changed is written: no patch for a row it left alone, and no
 * expiry moved forward for it either (normalize's `changedRowsOnly`).
 */

import { immerable, produce } from 'immer';
import { Entity } from '../schema/Entity.js';

/**
 * Runs `updater` over a draft of `current` and returns the next value, or undefined when it
 * changed nothing (nothing is then written).
 */
export function draftUpdate(current: unknown, updater: (draft: any) => unknown): unknown {
  const base = draftable(current);
  // A value that is no object (a Scalar cell's number) cannot be drafted: the updater's result is the value.
  if (typeof base !== 'object' || base === null) return updater(base);
  const next = produce(base, updater as (draft: unknown) => void);
  return next === base ? undefined : next;
}

/**
 * The value the updater drafts. What the cache reads back is frozen, and its entities are class
 * instances Immer would not draft: each is copied once into an unfrozen object of the same class
 * that Immer treats as draftable (the `immerable` mark is own and not enumerable, so it is never
 * stored). Lists and plain objects are copied; other values (a Date) are kept as they are.
 */
function draftable(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(draftable);
  const proto: unknown = Object.getPrototypeOf(value);
  const isEntity = value instanceof Entity;
  if (!isEntity && proto !== Object.prototype && proto !== null) return value;
  const copy = Object.create(proto as object | null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: draftable((value as Record<string, unknown>)[key]),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  if (isEntity) Object.defineProperty(copy, immerable, { value: true, configurable: true });
  return copy;
}
