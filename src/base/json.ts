/** JSON helpers: the equality behind no-op writes and the stable keys of args. */

import { hasOwn, isObject, isPlainRecord } from './dict.js';
import { describe, inputError } from './errors.js';
import { isRawBody } from './rawBody.js';

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
 * circular value, one nested deeper than `ARGS_DEPTH_LIMIT`, and one the string cannot tell
 * apart from others (a function, a symbol, a Set or Map, an instance with no fields of its own).
 */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'undefined';
  let sorted: unknown;
  try {
    sorted = sortKeys(value, 0);
  } catch (error) {
    if (error instanceof Unkeyable) throw unkeyableError(value, error.value);
    throw error === TOO_DEEP ? tooDeepError(value) : error;
  }
  return JSON.stringify(sorted) ?? 'undefined';
}

/** Thrown inside the walk; the error says whether the value was circular or only deep. */
const TOO_DEEP = Symbol('too deep');

/** Thrown inside the walk at a value a key cannot hold; the error names it. */
class Unkeyable {
  declare readonly value: unknown;

  constructor(value: unknown) {
    this.value = value;
  }
}

/** Tags of the collections JSON writes as `{}` whatever they hold (tags, not instanceof: other realms too). */
const COLLECTIONS = new Set(['[object Map]', '[object Set]', '[object WeakMap]', '[object WeakSet]']);

/**
 * Whether a class instance (not a plain object, an array, or a value with `toJSON`) would key as
 * nothing that tells it apart: a Map or Set, or an instance without own fields (its state in
 * private fields, getters or internal slots). A body `fetch` sends as it is (FormData, a Blob) is
 * left as JSON writes it: a mutation's key leaves it out, and mutations are never shared.
 */
function unkeyable(value: object, keys: readonly string[]): boolean {
  if (COLLECTIONS.has(Object.prototype.toString.call(value))) return true;
  return keys.length === 0 && !isRawBody(value);
}

// Reads key their args with this on every call: it keeps a depth count only (a cycle, too, ends
// at the depth limit), and looks for the cycle only when it has to say what went wrong.
function sortKeys(value: unknown, depth: number): unknown {
  const type = typeof value;
  if (type !== 'object' || value === null) {
    if (type === 'bigint' || (type === 'number' && !Number.isFinite(value))) return String(value);
    // JSON drops them (or writes null): two args differing only there would share one key.
    if (type === 'function' || type === 'symbol') throw new Unkeyable(value);
    return value;
  }
  if (depth >= ARGS_DEPTH_LIMIT) throw TOO_DEEP;
  // As JSON.stringify does: a Date (or anything with toJSON) counts as what it serializes to.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return sortKeys((value as { toJSON(): unknown }).toJSON(), depth + 1);
  if (Array.isArray(value)) return value.map(item => (item === undefined ? null : sortKeys(item, depth + 1)));
  const keys = Object.keys(value as object);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && unkeyable(value as object, keys)) throw new Unkeyable(value);
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of keys.sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item, depth + 1);
  }
  return sorted;
}

function tooDeepError(value: unknown): Error {
  if (isCircular(value, [])) {
    return inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        'The args contain a circular reference (an object that holds itself); args must be plain JSON-like values.',
        'Pass only the params that identify the request (strings, numbers, plain objects and arrays).',
      ],
    );
  }
  return inputError(
    'MAX_DEPTH_EXCEEDED',
    process.env.NODE_ENV !== 'production' && [
      `The args nest deeper than ${ARGS_DEPTH_LIMIT} levels.`,
      'Pass only the params that identify the request; flatten deeply nested values.',
    ],
  );
}

function unkeyableError(root: unknown, value: unknown): Error {
  return inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `The args hold ${describe(value)}${placeOf(root, value, '')}, which a key cannot tell apart from another (JSON writes it as ${JSON.stringify(JSON.stringify(value) ?? 'nothing')}): two reads with different ones would share one result.`,
      'Pass plain values: a list for a Set ([...set]), an object for a Map (Object.fromEntries(map)), the fields of an instance ({ ...value }, or give its class a toJSON()); leave functions out of args (pass what they compute).',
    ],
  );
}

/** Where `target` sits in `value` (` at [0].tags`), for messages; '' when not found within the depth limit. */
function placeOf(value: unknown, target: unknown, path: string, depth = 0): string {
  if (value === target) return path === '' ? '' : ` at ${path}`;
  if (!isObject(value) || depth > ARGS_DEPTH_LIMIT) return '';
  for (const key of Object.keys(value)) {
    const place = Array.isArray(value) ? `[${key}]` : `.${key}`;
    const found = placeOf((value as Record<string, unknown>)[key], target, path + place, depth + 1);
    if (found !== '') return found;
  }
  return '';
}

/** Whether an object on the path from `value` down holds one of its ancestors (at most the depth limit deep). */
function isCircular(value: unknown, ancestors: unknown[]): boolean {
  if (!isObject(value)) return false;
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
  if (!isPlainRecord(value)) return false;
  for (const key in value) if (value[key] !== undefined) return false;
  return true;
}
