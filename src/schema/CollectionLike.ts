/**
 * What a Collection's op and page schemas (CollectionOp, CollectionPage) use of their Collection.
 * Collection.ts makes its ops, so they name it by this shape instead of importing the class:
 * the imports stay one way (docs/architecture.md, "Layers").
 */

import { isObject } from '../base/dict.js';
import type { DenormalizeDelegate, NormalizeDelegate } from './contract.js';
import type { EntityLike } from './entityInfo.js';

/**
 * Makes the test of which stored lists an op reaches, from the op's args (data-client's
 * `createCollectionFilter`): `collectionKey` is a list's pk object, its numbers and booleans as strings.
 */
export type CreateCollectionFilter = (...args: any[]) => (collectionKey: Record<string, any>) => boolean;

/** How an op places its items in a stored list (or map): the stored refs and the incoming ones → the new refs. */
export type CollectionMerge = (existing: any, incoming: any) => any;

export interface CollectionLike {
  /** The member schema: `[Post]`, or a Values schema for a map. */
  readonly schema: unknown;
  /** The table of the collection's lists. */
  readonly key: string;
  /** True for a map (a Values collection), false for a list. */
  readonly isValues: boolean;
  /** The test of which stored lists an op with these args reaches (the option, an override, or the default). */
  createCollectionFilter(...args: any[]): (collectionKey: Record<string, any>) => boolean;
  /** The row key of the list for args. */
  pk(...args: readonly unknown[]): string;
  /** An item's ref, as the list stores it. */
  normalizeMember(item: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown;
  /** A stored ref, read as a member. */
  denormalizeMember(ref: unknown, delegate: DenormalizeDelegate): unknown;
  /** Stored refs (a list, or a map) read as members, into `into` when given. */
  readMembers(refs: object, delegate: DenormalizeDelegate, into?: object): unknown;
  /** The entity class an item would be stored as, if it can be told. */
  memberClass(item: unknown): EntityLike | undefined;
}

/**
 * Whether `value` is a Collection, told by its `kind` rather than `instanceof`: code that only
 * looks for a Collection in a schema (RestEndpoint's pagination) then does not bundle the class.
 */
export function isCollection(value: unknown): value is CollectionLike {
  return isObject(value) && (value as { kind?: unknown }).kind === 'Collection';
}
