/**
 * The small types the store files share: what the cache needs of a Redux store, the types read
 * off an endpoint, and the inputs and outputs of a write. They sit below every other file of
 * store/ (they import no file that imports them), so shared types never make two files import
 * each other (docs/architecture.md, "Layers").
 */

import type { ErrorRecord } from '../base/errors.js';
import type { Denormalize } from '../schema/types.js';
import type { WritePayload } from './slice/actions.js';

/** What a Controller needs of a store: Redux's `dispatch` (with the cache middleware) and `getState`. */
export interface StoreLike {
  dispatch(action: any): any;
  getState(): unknown;
}

type SchemaOf<E> = E extends { schema?: infer S } ? S : unknown;
/** The args an endpoint takes, from its `key` (RestEndpoint: from its path and searchParams). */
export type ArgsOf<E> = E extends { key(...args: infer A): string } ? A : unknown[];
/** What an endpoint's response reads as: its schema denormalized, or the raw response without one. */
export type ResponseData<E> = [SchemaOf<E>] extends [undefined]
  ? unknown
  : unknown extends SchemaOf<E>
    ? unknown
    : Denormalize<SchemaOf<E>>;

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
  error?: unknown;
}

export interface Resolved extends WritePayload {
  key: string;
  /** The normalized result of the response (absent when an error was stored). */
  result?: unknown;
  /** The error stored for the request: the one given, or the one normalizing raised. */
  error?: unknown;
  record?: ErrorRecord;
}
