/** The read walker's dispatch: a stored ref and its schema → the value users see (docs/architecture.md, "Reads and the memo model"). */

import { INVALID, isConstruct, isPlainObjectSchema, type DenormalizeDelegate } from '../schema/contract.js';
import { denormalizeArray } from '../schema/plainArray.js';
import { denormalizeObject } from '../schema/plainObject.js';

export function unvisit(schema: unknown, input: unknown, delegate: DenormalizeDelegate): unknown {
  if (input === INVALID || input === null || input === undefined) return input;
  if (schema === null || schema === undefined) return input;
  if (Array.isArray(schema)) return denormalizeArray(schema, input, delegate);
  if (isConstruct(schema)) return schema.denormalize(input, delegate);
  if (isPlainObjectSchema(schema)) return denormalizeObject(schema, input, delegate);
  if (typeof schema === 'function') return deserialize(schema, input);
  return input;
}

const constructs = new WeakMap<Function, boolean>();

/**
 * A plain function in a schema is a deserializer (docs/Entity.md): the row keeps the raw value and reads
 * apply the function. Classes (Date, or a user's value class) are called with `new`.
 */
function deserialize(fn: Function, value: unknown): unknown {
  let isClass = constructs.get(fn);
  if (isClass === undefined) {
    isClass = fn === Date || /^class[\s{]/.test(Function.prototype.toString.call(fn));
    constructs.set(fn, isClass);
  }
  return isClass ? new (fn as new (value: unknown) => unknown)(value) : (fn as (value: unknown) => unknown)(value);
}
