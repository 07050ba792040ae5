/** The key a read uses when there is no stored response: built from the store and args (docs/store.md, "Reading a response"). */

import { isConstruct, isPlainObjectSchema, type QueryDelegate } from '../schema/contract.js';
import { objectQueryKey } from '../schema/plainObject.js';

/** `undefined` means "not in the cache"; INVALID means "in the cache as deleted". */
export function queryKey(schema: unknown, args: readonly unknown[], delegate: QueryDelegate): unknown {
  if (isConstruct(schema)) return schema.queryKey(args, delegate);
  if (isPlainObjectSchema(schema)) return objectQueryKey(schema, args, delegate);
  // `[S]` and anything else: not queryable, only an endpoint's stored result can be read.
  return undefined;
}
