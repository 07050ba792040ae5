/**
 * Rows go into a Redux store that must stay plain JSON (BEHAVIOR §1.1): a value that JSON cannot
 * hold, a circular structure or an absurdly deep one is rejected here, before anything is written.
 * In development the checked values are frozen, as Immer freezes what enters a draft.
 */

import { isDevelopment } from '../shared/env.js';
import { setOwn } from '../shared/dict.js';
import { describe, ErrorCode, inputError } from '../shared/errors.js';

/** Raw (schema-less) data nested deeper than this is rejected; JSON from real APIs is far shallower. */
export const RAW_DEPTH_LIMIT = 256;

/**
 * Returns `value` as the store may hold it: the same object when it is already plain JSON without
 * `undefined` properties (the common case, no copy), else a copy without them (`undefined` array
 * items become `null`, as JSON would write them). Throws on what JSON cannot hold.
 */
export function toJsonValue<T>(value: T, where: string): T {
  if (typeof value !== 'object' || value === null) {
    checkPrimitive(value, where);
    return value;
  }
  return visitValue(value, where, [], isDevelopment()) as T;
}

const SKIP = Symbol('skip');

function visitValue(value: object, where: string, ancestors: object[], freeze: boolean): object {
  if (ancestors.includes(value)) {
    throw inputError(
      ErrorCode.UNEXPECTED_INPUT,
      `${where} contains a circular reference; the cache stores plain JSON.`,
      'Break the cycle, or give the nested objects an Entity schema so they are stored by reference.',
    );
  }
  if (ancestors.length >= RAW_DEPTH_LIMIT) {
    throw inputError(
      ErrorCode.MAX_DEPTH_EXCEEDED,
      `${where} nests deeper than ${RAW_DEPTH_LIMIT} levels.`,
      'Flatten the data, or describe the nested parts with schemas.',
    );
  }
  const isArray = Array.isArray(value);
  if (!isArray) checkPlainObject(value, where);
  ancestors.push(value);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = record[key];
    let next: unknown;
    if (item === undefined) next = isArray ? null : SKIP;
    else if (typeof item === 'object' && item !== null) next = visitValue(item, `${where}.${key}`, ancestors, freeze);
    else next = checkPrimitive(item, `${where}.${key}`);
    if (copy === undefined && next !== item) {
      copy = isArray ? (value as unknown[]).slice(0, i) : {};
      if (!isArray) for (let j = 0; j < i; j++) setOwn(copy as Record<string, unknown>, keys[j]!, record[keys[j]!]);
    }
    if (copy !== undefined && next !== SKIP) {
      if (isArray) (copy as unknown[]).push(next);
      else setOwn(copy as Record<string, unknown>, key, next);
    }
  }
  ancestors.pop();
  const result = copy ?? value;
  if (freeze) Object.freeze(result);
  return result;
}

function checkPlainObject(value: object, where: string): void {
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return;
  const hint =
    value instanceof Date
      ? ' Store it as an ISO string and add the field to `static schema` as `Date` to read a Date back.'
      : '';
  throw inputError(
    ErrorCode.UNEXPECTED_INPUT,
    `${where} holds ${describe(value)}; the cache stores plain JSON (objects, arrays, strings, numbers, booleans, null).`,
    `Convert it to plain data before writing.${hint}`,
  );
}

function checkPrimitive<T>(value: T, where: string): T {
  const type = typeof value;
  if (type === 'function' || type === 'symbol' || type === 'bigint') {
    throw inputError(
      ErrorCode.UNEXPECTED_INPUT,
      `${where} holds ${describe(value)}; the cache stores plain JSON.`,
      'Convert it to a string or number before writing.',
    );
  }
  return value;
}
