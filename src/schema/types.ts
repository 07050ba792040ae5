/**
 * Type inference from schemas: `Denormalize<S>` is what a read of S returns, `Normalize<S>` what
 * is stored for it. Users get endpoint and query types from their schemas without writing them.
 */

import type { All } from './All.js';
import type { Collection } from './Collection.js';
import type { CollectionOp } from './CollectionOp.js';
import type { Entity } from './Entity.js';
import type { Invalidate } from './Invalidate.js';
import type { Lazy, LazyQuery } from './Lazy.js';
import type { PolymorphicRef } from './polymorphic.js';
import type { Union } from './Union.js';
import type { Values } from './Values.js';

type EntityCtor = abstract new (...args: any[]) => Entity;
type InstanceOf<C> = C extends abstract new (...args: any[]) => infer I ? I : never;

/** The fields of an entity class whose `static schema` type names a Scalar for them. */
type ScalarFields<C> = C extends { readonly schema?: infer F }
  ? F extends object
    ? { [K in keyof F]-?: F[K] extends { readonly kind: 'Scalar' } ? K : never }[keyof F]
    : never
  : never;
/**
 * What a read of an entity class returns: an instance, whose Scalar fields read `undefined` until
 * a cell arrives for the read's lens (docs/Scalar.md, "Types"). TypeScript sees those fields when
 * the class's `static schema` type names them (declared in the class); otherwise the instance type
 * is returned as it is.
 */
type EntityValue<C> = C extends unknown
  ? [ScalarFields<C>] extends [never]
    ? InstanceOf<C>
    : { [K in keyof InstanceOf<C>]: K extends ScalarFields<C> ? InstanceOf<C>[K] | undefined : InstanceOf<C>[K] }
  : never;

/** The members of a polymorphic definition: one class, or a map of them. */
type MembersOf<S> = S extends EntityCtor
  ? EntityValue<S>
  : S extends Record<string, unknown>
    ? EntityValue<S[keyof S]>
    : never;

/**
 * What a read of `S` without a stored response returns (`selectQuery`, a Query's input): as
 * `Denormalize<S>`, except a root read of a Scalar, which returns the lens's cells.
 */
export type Queried<S> = S extends { readonly kind: 'Scalar'; readonly __cell?: infer C }
  ? C[]
  : S extends
        | { readonly kind: string }
        | (abstract new (...args: any[]) => unknown)
        | readonly unknown[]
        | ((...args: any[]) => unknown)
    ? Denormalize<S>
    : S extends object
      ? { [K in keyof S]: Queried<S[K]> | undefined }
      : Denormalize<S>;

/** One member of a Collection's schema (`[Post]` or `new Values(Post)`), as read. */
type CollectionMember<C> = C extends readonly [infer M]
  ? Denormalize<M>
  : Denormalize<C> extends Record<string, infer X>
    ? X
    : never;

/** The value a read of schema `S` returns. */
export type Denormalize<S> = S extends EntityCtor
  ? EntityValue<S>
  : S extends { readonly kind: 'Union'; readonly schema: infer M }
    ? MembersOf<M>
    : S extends { readonly kind: 'Values'; readonly schema: infer V }
      ? V extends EntityCtor | { readonly kind: string } | readonly unknown[]
        ? Record<string, Denormalize<V>>
        : Record<string, MembersOf<V>>
      : S extends { readonly kind: 'All'; readonly schema: infer A }
        ? MembersOf<A>[]
        : S extends { readonly kind: 'Collection'; readonly schema: infer C }
          ? C extends readonly [unknown]
            ? CollectionMember<C>[]
            : Record<string, CollectionMember<C>>
          : S extends { readonly kind: 'CollectionOp'; readonly op: infer O; readonly schema: infer C }
            ? O extends 'assign'
              ? Record<string, CollectionMember<C>>
              : CollectionMember<C> | CollectionMember<C>[]
            : S extends { readonly kind: 'CollectionPage'; readonly schema: infer C }
              ? CollectionMember<C>[]
              : S extends { readonly kind: 'Invalidate'; readonly schema: infer E }
                ? Denormalize<E>
                : S extends { readonly kind: 'Lazy'; readonly schema: infer L }
                  ? Normalize<L>
                  : S extends { readonly kind: 'LazyQuery'; readonly schema: infer L }
                    ? Denormalize<L>
                    : S extends { readonly kind: 'Query'; readonly __result?: infer R }
                      ? R
                      : S extends { readonly kind: 'Scalar'; readonly __cell?: infer C }
                        ? C
                        : S extends readonly [infer M]
                          ? Denormalize<M>[]
                          : S extends readonly (infer M)[]
                            ? Denormalize<M>[]
                            : S extends DateConstructor
                              ? Date
                              : S extends abstract new (value: any) => infer I
                                ? I
                                : S extends (value: any) => infer R
                                  ? R
                                  : S extends object
                                    ? { [K in keyof S]: Member<S[K]> }
                                    : S;

/**
 * A member of a plain-object schema. A value that is not a schema (`total: 0`, `nextCursor: ''`)
 * reads as whatever the server sends in its place, so a lone literal, which is how RestEndpoint's
 * options infer it, widens to its primitive (`number`, `string`); a union of literals or a type
 * the user wrote (`'' as string | null`, `'open' as 'open' | 'closed'`) is kept.
 */
type Member<T> = [T] extends [string | number | bigint | boolean]
  ? IsUnion<T> extends true
    ? T
    : Widen<T>
  : Denormalize<T>;
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;
type Widen<T> = T extends `${infer _}`
  ? string
  : T extends number
    ? number
    : T extends bigint
      ? bigint
      : T extends boolean
        ? boolean
        : T;

/** The value stored for schema `S`: refs in place of entities. */
export type Normalize<S> = S extends EntityCtor
  ? string
  : S extends { readonly kind: 'Union' }
    ? PolymorphicRef
    : S extends { readonly kind: 'Values'; readonly schema: infer V }
      ? Record<string, V extends EntityCtor ? string : Normalize<V>>
      : S extends { readonly kind: 'All' }
        ? undefined
        : S extends { readonly kind: 'Collection' }
          ? string
          : S extends { readonly kind: 'CollectionOp'; readonly op: infer O }
            ? O extends 'assign'
              ? Record<string, unknown>
              : unknown
            : S extends { readonly kind: 'CollectionPage' }
              ? unknown[]
              : S extends { readonly kind: 'Invalidate' }
                ? string
                : S extends { readonly kind: 'Lazy' | 'LazyQuery'; readonly schema: infer L }
                  ? Normalize<L>
                  : S extends { readonly kind: 'Query'; readonly schema: infer Q }
                    ? Normalize<Q>
                    : S extends { readonly kind: 'Scalar' }
                      ? string
                      : S extends readonly [infer M]
                        ? Normalize<M>[]
                        : S extends readonly (infer M)[]
                          ? Normalize<M>[]
                          : S extends (...args: any[]) => unknown
                            ? unknown
                            : S extends object
                              ? { [K in keyof S]: Normalize<S[K]> }
                              : S;

export type { All, Collection, CollectionOp, Invalidate, Lazy, LazyQuery, Union, Values };
