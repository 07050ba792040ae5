/**
 * The small types the store files share: what the cache needs of a Redux store, the types read
 * off an endpoint, and the inputs and outputs of a write. They sit below every other file of
 * store/ (they import no file that imports them), so shared types never make two files import
 * each other (docs/architecture.md, "Layers").
 */

import type { ContentData } from '../base/endpointOptions.js';
import type { ErrorRecord } from '../base/errors.js';
import type { EndpointMeta } from '../base/state.js';
import type { Denormalize } from '../schema/types.js';
import type { WritePayload } from './slice/reducer.js';

/** What a Controller needs of a store: Redux's `dispatch` (with the cache middleware) and `getState`. */
export interface StoreLike {
  dispatch(action: any): any;
  getState(): unknown;
}

type SchemaOf<E> = E extends { schema?: infer S } ? S : unknown;
/** The args an endpoint takes, from its `key` (RestEndpoint: from its path and searchParams). */
export type ArgsOf<E> = E extends { key(...args: infer A): string } ? A : unknown[];
/** What an endpoint's schema reads as: denormalized, or the raw response without a schema (a download's Blob, bytes or stream). */
type SchemaData<E> = [SchemaOf<E>] extends [undefined]
  ? [E] extends [{ content: infer C extends keyof ContentData }]
    ? ContentData[C]
    : unknown
  : unknown extends SchemaOf<E>
    ? unknown
    : Denormalize<SchemaOf<E>>;

/** The body a call sends, `args[1]` (`unknown` when the args have no second place). */
type BodyOf<A> = A extends readonly [unknown, ...infer Rest] ? (Rest extends readonly [] ? unknown : Rest[0]) : unknown;
type Sent<B> = Exclude<B, undefined | null>;
type Lists = readonly unknown[];

/** `true` for a create endpoint (`push`, `unshift`): its answer reads back in the shape the body was sent. */
export type IsCreate<E> = [E] extends [never]
  ? false
  : SchemaOf<E> extends { readonly kind: 'CollectionOp'; readonly op: 'push' | 'unshift' }
    ? true
    : false;
/** The bodies of a create that are a list of items (any list when the endpoint names no body type). */
export type ListBody<E> = unknown extends BodyOf<ArgsOf<E>> ? Lists : Extract<Sent<BodyOf<ArgsOf<E>>>, Lists>;
/** The bodies of a create that are one item (any object when the endpoint names no body type). */
export type OneBody<E> = unknown extends BodyOf<ArgsOf<E>> ? object : Exclude<Sent<BodyOf<ArgsOf<E>>>, Lists>;
/** A create's args with its body narrowed to one of its shapes (`ListBody<E>` or `OneBody<E>`). */
export type CreateArgs<E, Body> = ArgsOf<E> extends readonly [infer P, ...unknown[]] ? [params: P, body: Body] : never;
/** What a create reads back as when a list was sent. */
export type CreatedList<E> = Extract<SchemaData<E>, Lists>;
/** What a create reads back as when one object was sent. */
export type CreatedItem<E> = Exclude<SchemaData<E>, Lists>;

/**
 * What an endpoint's response reads as: its schema denormalized, or the raw response without
 * one. A create reads back in the shape it was sent (docs/Collection.md), so a create endpoint
 * whose body type is one object reads as one item, one whose body type is a list as a list.
 */
export type ResponseData<E> =
  IsCreate<E> extends true
    ? [OneBody<E>] extends [never]
      ? CreatedList<E>
      : [ListBody<E>] extends [never]
        ? CreatedItem<E>
        : SchemaData<E>
    : SchemaData<E>;

/** Which stored requests `invalidateAll` and `expireAll` reach (default: all). */
export interface KeyFilter {
  testKey?: ((key: string) => boolean) | undefined;
}

export interface ResolveInput {
  args: readonly unknown[];
  response?: unknown;
  /**
   * The answer's stamp: a read's start, a mutation's arrival (a read that started before a
   * mutation's answer arrived never overwrites what it wrote; docs/architecture.md, "Ordering").
   */
  fetchedAt: number;
  /** The request's start stamp, when it differs from `fetchedAt` (a mutation): its guess is found by it. */
  start?: number | undefined;
  /** When the request was sent later than it started (held by the outbox): the stamp it was sent at. */
  sent?: number | undefined;
  error?: unknown;
  /**
   * A list's answer joined from the pages it holds (runtime/pages.ts): none for a first page
   * alone; for a page, which way it goes, decided as its request started.
   */
  pages?: JoinedPages | PageWay | undefined;
}

/** Which way a page goes: `back`, before the pages its list holds (it was the list's previous page). */
export interface PageWay {
  readonly back: boolean;
}

/**
 * The pages a joined answer of a list holds, in the list's order (the list's own answer as the
 * pages feature's `BASE`; absent when it was dropped for `maxPages`), the first and last
 * responses, and how many items each response brought.
 */
export interface JoinedPages {
  readonly order: readonly unknown[];
  readonly first: unknown;
  readonly last: unknown;
  readonly sizes: readonly number[];
}

export interface Resolved extends WritePayload {
  key: string;
  /** The normalized result of the response (absent when an error was stored). */
  result?: unknown;
  /** The meta written for the request's key (absent when an older answer left it as it was). */
  meta?: EndpointMeta;
  /** The error stored for the request: the one given, or the one normalizing raised. */
  error?: unknown;
  record?: ErrorRecord;
}
