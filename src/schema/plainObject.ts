/** Plain object schemas, `{ ticker: Ticker, stats: Stats, n: 3 }` (docs/plain-schemas.md). */

import { hasOwn, isRecord, setOwn } from '../base/dict.js';
import { freezeInDevelopment } from '../base/env.js';
import { describe, inputError } from '../base/errors.js';
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
  if (!isRecord(input)) {
    throw inputError(
      'UNEXPECTED_INPUT',
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

/**
 * Any invalid member makes the whole object invalid; undefined members stay. When no member reads
 * as something else (every member is plain data), the stored object itself is the value, as
 * data-client returns it: nothing to copy, and the same object on every read (docs/plain-schemas.md).
 */
export function denormalizeObject(
  schema: Record<string, unknown>,
  input: unknown,
  delegate: DenormalizeDelegate,
): unknown {
  if (!isRecord(input)) return input;
  const source = input as Record<string, unknown>;
  let result: Record<string, unknown> | undefined;
  const fields = Object.keys(source);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const fieldSchema = hasOwn(schema, field) ? schema[field] : undefined;
    if (!isSchemaValue(fieldSchema)) {
      if (result) setOwn(result, field, source[field]);
      continue;
    }
    const value = delegate.unvisit(fieldSchema, source[field]);
    if (value === INVALID) return INVALID;
    if (result) setOwn(result, field, value);
    else if (value !== source[field]) {
      // The first member that reads differently: copy the ones before it, then go on copying.
      result = {};
      for (let j = 0; j < i; j++) setOwn(result, fields[j]!, source[fields[j]!]);
      setOwn(result, field, value);
    }
  }
  return result ? freezeInDevelopment(result) : source;
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
