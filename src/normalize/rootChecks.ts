/** The checks at the edges of a write walk: the response's root shape, and what a callback threw. */

import { isObject, isRecord } from '../base/dict.js';
import { describe, inputError, jsonStringHint, setupError, type LensCacheError } from '../base/errors.js';
import type { RootInput } from '../schema/contract.js';

/**
 * A schema callback (`process`, `pk`, `merge`, `validate`, a lens) threw something that is not an
 * Error. Callers tell "failed" from "succeeded" by whether an error exists, and `throw undefined`
 * would read as success: every failure leaves here as an Error, the thrown value as its `cause`.
 */
export function nonErrorThrown(thrown: unknown): LensCacheError {
  const error = setupError(
    'NON_ERROR_THROWN',
    process.env.NODE_ENV !== 'production' && [
      `Normalizing threw ${describe(thrown)}, not an Error: a schema callback (process, pk, merge, validate, a lens or argsKey) threw it.`,
      'Throw an Error (throw new Error("…")) from your callbacks, so that the failure has a message and a stack.',
    ],
  );
  Object.defineProperty(error, 'cause', { value: thrown, configurable: true, writable: true });
  return error;
}

/** What each root input kind expects, for development messages (unused, so dropped, in production bundles). */
const WANTED: Record<RootInput, string> = {
  any: 'anything',
  object: 'an object',
  list: 'an array',
  'object-or-list': 'an object or an array',
  'object-or-pk': 'an object or a pk',
};

export function checkRoot(expected: RootInput, input: unknown): void {
  const record = isRecord(input);
  const ok =
    expected === 'any' ||
    (expected === 'object' && record) ||
    (expected === 'list' && Array.isArray(input)) ||
    (expected === 'object-or-list' && isObject(input)) ||
    (expected === 'object-or-pk' && (record || typeof input === 'string' || typeof input === 'number'));
  if (ok) return;
  throw inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `The response does not fit the schema: expected ${WANTED[expected]}, but received ${describe(input)}.${jsonStringHint(input)}`,
      expected === 'list' && isObject(input)
        ? 'If the list sits inside the response (e.g. { results: [...] }), describe that: { results: collection }.'
        : 'Check the endpoint returns what its schema describes (a null or empty body cannot be normalized).',
    ],
  );
}
