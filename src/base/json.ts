/** JSON helpers: the equality behind no-op writes and the stable keys of args. */

import { hasOwn } from './dict.js';
import { ErrorCode, inputError } from './errors.js';

/**
 * Deep equality as JSON sees it: own enumerable keys, `undefined` properties ignored, key order
 * ignored. Used to skip patches for rows whose merged content did not change, so it must be cheap
 * on the common case (same object, or flat rows of primitives).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let leftCount = 0;
  for (const key in left) {
    if (!hasOwn(left, key) || left[key] === undefined) continue;
    leftCount++;
    if (!hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
  }
  let rightCount = 0;
  for (const key in right) if (hasOwn(right, key) && right[key] !== undefined) rightCount++;
  return leftCount === rightCount;
}

/** Args nested deeper than this are refused: real params are shallow, and the walk stays far from the stack's limit. */
export const ARGS_DEPTH_LIMIT = 256;

/**
 * A stable serialization: object keys sorted at every level, `undefined` properties dropped, so
 * the same args in any key order give the same string. A BigInt, NaN or ±Infinity is written as
 * its decimal text (a string), as URLs and Collection pks write it. Throws a coded error for a
 * circular value or one nested deeper than `ARGS_DEPTH_LIMIT`.
 */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'undefined';
  let sorted: unknown;
  try {
    sorted = sortKeys(value, 0);
  } catch (error) {
    throw error === TOO_DEEP ? tooDeepError(value) : error;
  }
  return JSON.stringify(sorted) ?? 'undefined';
}

/** Thrown inside the walk; the error says whether the value was circular or only deep. */
const TOO_DEEP = Symbol('too deep');

// Reads key their args with this on every call: it keeps a depth count only (a cycle, too, ends
// at the depth limit), and looks for the cycle only when it has to say what went wrong.
function sortKeys(value: unknown, depth: number): unknown {
  const type = typeof value;
  if (type !== 'object' || value === null) {
    if (type === 'bigint' || (type === 'number' && !Number.isFinite(value))) return String(value);
    return value;
  }
  if (depth >= ARGS_DEPTH_LIMIT) throw TOO_DEEP;
  // As JSON.stringify does: a Date (or anything with toJSON) counts as what it serializes to.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return sortKeys((value as { toJSON(): unknown }).toJSON(), depth + 1);
  if (Array.isArray(value)) return value.map(item => (item === undefined ? null : sortKeys(item, depth + 1)));
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value as object).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item, depth + 1);
  }
  return sorted;
}

function tooDeepError(value: unknown): Error {
  if (isCircular(value, [])) {
    return inputError(
      ErrorCode.UNEXPECTED_INPUT,
      process.env.NODE_ENV !== 'production' && [
        'The args contain a circular reference (an object that holds itself); args must be plain JSON-like values.',
        'Pass only the params that identify the request (strings, numbers, plain objects and arrays).',
      ],
    );
  }
  return inputError(
    ErrorCode.MAX_DEPTH_EXCEEDED,
    process.env.NODE_ENV !== 'production' && [
      `The args nest deeper than ${ARGS_DEPTH_LIMIT} levels.`,
      'Pass only the params that identify the request; flatten deeply nested values.',
    ],
  );
}

/** Whether an object on the path from `value` down holds one of its ancestors (at most the depth limit deep). */
function isCircular(value: unknown, ancestors: unknown[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (ancestors.includes(value)) return true;
  if (ancestors.length > ARGS_DEPTH_LIMIT) return false;
  ancestors.push(value);
  for (const key of Object.keys(value)) if (isCircular((value as Record<string, unknown>)[key], ancestors)) return true;
  ancestors.pop();
  return false;
}

/** `null` as the params (`args[0]`) means "skip this read": nothing is read or fetched (docs/store.md). */
export function isSkipArgs(args: readonly unknown[]): boolean {
  return args[0] === null;
}

/**
 * The memo key of a read's args: stable, and the same for args that read the same thing.
 * Trailing `undefined` args are dropped, and a lone params object with no defined keys counts as
 * no args at all (`[]`, `[undefined]` and `[{}]` are one read).
 */
export function argsKey(args: readonly unknown[]): string {
  let length = args.length;
  while (length > 0 && args[length - 1] === undefined) length--;
  if (length === 1 && isEmptyParams(args[0])) length = 0;
  return length === 0 ? '[]' : stableStringify(length === args.length ? args : args.slice(0, length));
}

function isEmptyParams(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if ((value as Record<string, unknown>)[key] !== undefined) return false;
  return Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null;
}
