/**
 * Rows go into a Redux store that must stay plain JSON (BEHAVIOR §1.1): a value that JSON cannot
 * hold, a circular structure or an absurdly deep one is rejected here, before anything is written.
 * In development the checked values are frozen, as Immer freezes what enters a draft.
 */

import { isDevelopment } from '../shared/env.js';
import { describe, ErrorCode, inputError } from '../shared/errors.js';

/** Raw (schema-less) data nested deeper than this is rejected; JSON from real APIs is far shallower. */
export const RAW_DEPTH_LIMIT = 256;

export function checkJsonValue(value: unknown, where: string): void {
  if (typeof value !== 'object' || value === null) {
    checkPrimitive(value, where);
    return;
  }
  visitValue(value, where, [], isDevelopment());
}

function visitValue(value: object, where: string, ancestors: object[], freeze: boolean): void {
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
  if (!Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
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
  }
  ancestors.push(value);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (typeof item === 'object' && item !== null) visitValue(item, `${where}.${key}`, ancestors, freeze);
    else checkPrimitive(item, `${where}.${key}`);
  }
  ancestors.pop();
  if (freeze) Object.freeze(value);
}

function checkPrimitive(value: unknown, where: string): void {
  const type = typeof value;
  if (type === 'function' || type === 'symbol' || type === 'bigint') {
    throw inputError(
      ErrorCode.UNEXPECTED_INPUT,
      `${where} holds ${describe(value)}; the cache stores plain JSON.`,
      'Convert it to a string or number before writing.',
    );
  }
}
