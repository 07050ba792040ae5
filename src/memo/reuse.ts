/**
 * Structural sharing for containers (docs/architecture.md, "Reads and the memo model"): when a read had to be recomputed but its
 * plain arrays and objects hold the very same members in the same order, the previous containers
 * are returned, so `useSelector` sees no change. Entity instances compare by identity only.
 */

import { hasOwn } from '../base/dict.js';

export function reuse<T>(previous: unknown, next: T): T {
  if (previous === next || !isPlainContainer(previous) || !isPlainContainer(next)) return next;
  return (sameMembers(previous, next) ? previous : next) as T;
}

/** True when both are plain containers holding the very same members in the same order. */
export function sameContainer(previous: unknown, next: unknown): boolean {
  return isPlainContainer(previous) && isPlainContainer(next) && sameMembers(previous, next);
}

/** The first member of a plain container when it is an object (a key for finding equal containers). */
export function firstMember(value: unknown): object | undefined {
  if (!isPlainContainer(value)) return undefined;
  let first: unknown;
  if (Array.isArray(value)) first = value[0];
  else {
    for (const key in value) {
      first = (value as Record<string, unknown>)[key];
      break;
    }
  }
  return typeof first === 'object' && first !== null ? first : undefined;
}

function isPlainContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sameMembers(previous: object, next: object): boolean {
  if (Array.isArray(previous) !== Array.isArray(next)) return false;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const keys = Object.keys(after);
  if (keys.length !== Object.keys(before).length) return false;
  for (const key of keys) {
    if (!hasOwn(before, key)) return false;
    const a = before[key];
    const b = after[key];
    if (a !== b && !(isPlainContainer(a) && isPlainContainer(b) && sameMembers(a, b))) return false;
  }
  return true;
}
