/**
 * How containers read their members (docs/plain-schemas.md), shared by plain arrays, `All`, `Values`,
 * collections and their ops, and root Scalar reads; and the items a write takes from list input. Each takes the container to fill, so a caller
 * that must hold it before its members are read (a collection list, for cycles) can pass it in.
 */

import { isObject, setOwn } from '../base/dict.js';
import { describe, type DevText, inputError } from '../base/errors.js';
import { freezeInDevelopment } from '../base/env.js';
import { INVALID } from './contract.js';

/** Lists: members that read `undefined` or invalid are dropped; `null` members are kept. */
export function readList(refs: readonly unknown[], read: (ref: unknown) => unknown, values: unknown[] = []): unknown[] {
  for (const ref of refs) {
    const value = read(ref);
    if (value !== undefined && value !== INVALID) values.push(value);
  }
  return freezeInDevelopment(values);
}

/** Maps: members that read falsy or invalid drop out, key and all. */
export function readMap(
  refs: Readonly<Record<string, unknown>>,
  read: (ref: unknown) => unknown,
  values: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const key of Object.keys(refs)) {
    const value = read(refs[key]);
    if (value && value !== INVALID) setOwn(values, key, value);
  }
  return freezeInDevelopment(values);
}

/** The items of list input: an array, or the values of an object. */
export function listItems(input: unknown, what: DevText): readonly unknown[] {
  if (Array.isArray(input)) return input;
  if (isObject(input)) return Object.values(input);
  throw inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `${what} expected a list (an array), but received ${describe(input)}.`,
      'Check that the schema matches the response.',
    ],
  );
}
