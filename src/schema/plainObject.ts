/** Plain object schemas, `{ ticker: Ticker, stats: Stats, n: 3 }` (docs/plain-schemas.md). */

import { hasOwn, setOwn } from '../base/dict.js';
import { freezeInDevelopment } from '../base/env.js';
import { describe, ErrorCode, inputError } from '../base/errors.js';
import { INVALID, type DenormalizeDelegate, type NormalizeDelegate, type QueryDelegate } from './contract.js';

/** A schema value that is a schema at all (`n: 3` in `{ a: A, n: 3 }` is not). */
function isSchemaValue(value: unknown): boolean {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

/** Keys with a schema are normalized; other keys are copied; undefined values are dropped. */
export function normalizeObject(
  schema: Record<string, unknown>,
  input: unknown,
  delegate: NormalizeDelegate,
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw inputError(
      ErrorCode.UNEXPECTED_INPUT,
      process.env.NODE_ENV !== 'production' && [
        `An object schema {${Object.keys(schema).join(', ')}} expected an object, but received ${describe(input)}.`,
        'Check that the schema matches the response.',
      ],
    );
  }
  const source = input as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const field of Object.keys(source)) {
    const value = source[field];
    if (value === undefined) continue;
    const fieldSchema = hasOwn(schema, field) ? schema[field] : undefined;
    const ref = isSchemaValue(fieldSchema) ? delegate.visit(fieldSchema, value, source, field) : value;
    if (ref !== undefined) setOwn(result, field, ref);
  }
  return result;
}

/** Any invalid member makes the whole object invalid; undefined members stay (docs/plain-schemas.md). */
export function denormalizeObject(
  schema: Record<string, unknown>,
  input: unknown,
  delegate: DenormalizeDelegate,
): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const source = input as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const field of Object.keys(source)) {
    const fieldSchema = hasOwn(schema, field) ? schema[field] : undefined;
    const value = isSchemaValue(fieldSchema) ? delegate.unvisit(fieldSchema, source[field]) : source[field];
    if (value === INVALID) return INVALID;
    setOwn(result, field, value);
  }
  return freezeInDevelopment(result);
}

/**
 * `{ a: key(A), b: key(B), n: 3 }`: an object whenever every member can be read, so a join runs
 * with absent members `undefined`. A member that is invalid (an `All` of a table never written)
 * makes the whole object invalid, as a deleted member does on read (docs/plain-schemas.md).
 */
export function objectQueryKey(
  schema: Record<string, unknown>,
  args: readonly unknown[],
  delegate: QueryDelegate,
): Record<string, unknown> | typeof INVALID {
  const key: Record<string, unknown> = {};
  for (const field of Object.keys(schema)) {
    const fieldSchema = schema[field];
    const memberKey = isSchemaValue(fieldSchema) ? delegate.queryKey(fieldSchema, args) : fieldSchema;
    if (memberKey === INVALID) return INVALID;
    setOwn(key, field, memberKey);
  }
  return key;
}
