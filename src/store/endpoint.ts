/** What the cache needs of an endpoint: any object with `key(...args)` and (optionally) `schema`. */

import { checkFlag, checkSharedOptions, type ResponseContent, type RetryOptions } from '../base/endpointOptions.js';
import { describe, setupError, type DevText } from '../base/errors.js';
import type { OptimisticSnapshot } from '../rest/OptimisticSnapshot.js';
import type { Pagination } from '../rest/types.js';
import type { RequestContext } from '../rest/requestContext.js';

export type { OptimisticSnapshot };

export interface EndpointLike<S = unknown, A extends readonly unknown[] = any[]> {
  /** The request key: the same args must give the same key. */
  key(...args: A): string;
  schema?: S | undefined;
  /** How long a stored response stays valid, in ms (default: the cache's, 60 000 unless set). */
  dataExpiryLength?: number | undefined;
  /** How long a stored error stays valid, in ms (default: the cache's, 1 000 unless set). */
  errorExpiryLength?: number | undefined;
  /**
   * Stale data reads as invalid: a reader suspends and fetches rather than showing it while it
   * is fetched again (docs/store.md, "Reading a response"). Default false.
   */
  invalidIfStale?: boolean | undefined;
  /** Mutations: never shared between callers (default: false). */
  sideEffect?: boolean | undefined;
  /**
   * How the body is read; a download (`'blob'`, `'arrayBuffer'`, `'stream'`) is answered to the
   * caller and never stored (docs/RestEndpoint.md#downloads). Give a download `sideEffect: true` too.
   */
  content?: ResponseContent | undefined;
  /**
   * Performs the request (needed by `cache.fetch`), given the signal and the store's request
   * options with the request's api (docs/authentication.md); RestEndpoint passes both on to `fetch`.
   */
  request?(args: readonly unknown[], signal?: AbortSignal, context?: RequestContext): Promise<unknown>;
  fetch?(...args: A): Promise<unknown>;
  /** ms between refetches while something subscribes (docs/live-data.md). */
  pollFrequency?: number | undefined;
  /** How a failed read is tried again (docs/live-data.md#retries); reads only. */
  retry?: RetryOptions | undefined;
  /** ms each try may take before it fails with TIMEOUT (default: the cache's; none unless set). */
  timeout?: number | undefined;
  /** The value to show while the request is in flight (docs/mutations.md); `undefined` shows nothing. */
  getOptimisticResponse?(snap: OptimisticSnapshot, ...args: A): unknown;
  /** A paginated list, or one of its pages (docs/pagination.md); RestEndpoint sets it with `paginationField`. */
  readonly pagination?: Pagination | undefined;
}

/**
 * How long what a cache stores stays valid when the endpoint says nothing (createCache's
 * `dataExpiryLength` and `errorExpiryLength`; docs/store.md, "Writes"). `set`, which has no
 * endpoint, uses `dataExpiryLength`.
 */
export interface ExpiryDefaults {
  readonly dataExpiryLength: number;
  readonly errorExpiryLength: number;
}

/** The expiry defaults of a cache created without any: a minute for data, a second for errors. */
export const DEFAULT_EXPIRY: ExpiryDefaults = Object.freeze({ dataExpiryLength: 60_000, errorExpiryLength: 1_000 });

/** Whether the endpoint normalizes its responses; without a schema a response is stored as it is. */
export function hasSchema(endpoint: EndpointLike): boolean {
  return endpoint.schema !== undefined && endpoint.schema !== null;
}

/**
 * The `expiresAt` of a response that never expires (`dataExpiryLength: Infinity`): the last
 * instant a Date can hold. The state must survive JSON unchanged, and JSON writes Infinity as null.
 */
export const NEVER_EXPIRES = 8_640_000_000_000_000;

/** When something stored at `now` expires, after `length` ms (Infinity: never). */
export function expiryTime(now: number, length: number, option: DevText): number {
  // (`!(length >= 0)` is also true for NaN.)
  if (typeof length !== 'number' || !(length >= 0)) {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `${option} must be a number of milliseconds (0 or more, or Infinity), but it is ${describe(length)}.`,
        `Set ${option} to how long a stored answer stays valid, e.g. 60_000, or Infinity for never.`,
      ],
    );
  }
  return Math.min(now + length, NEVER_EXPIRES);
}

/**
 * `endpoint.key(...args)`, checked: every request key the cache computes comes from here. A key
 * that is not a string (an override missing its `return`) is INVALID_OPTION before anything is
 * sent, read or written, rather than a read of nothing that fetches again on every render.
 */
export function requestKey(endpoint: EndpointLike, args: readonly unknown[]): string {
  const key = typeof endpoint?.key === 'function' ? endpoint.key(...args) : NO_KEY;
  if (typeof key === 'string') return key;
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      key === NO_KEY
        ? `${describe(endpoint)} was used as an endpoint, but it has no key(...args) method.`
        : `The key(...args) of ${describe(endpoint)} returned ${describe(key)}; a request key is a string, the same for the same args.`,
      'Make key(...args) return a string, e.g. key(params) { return `GET /posts/${params.id}`; } (an override without `return` gives undefined).',
    ],
  );
}

/** Stands for a missing `key` method in requestKey's message. */
const NO_KEY = Symbol('no key');

/**
 * Checks, before a request is sent, the options of any endpoint object (a RestEndpoint checked
 * them when it was made, with the same checks) and the features they need (`installed`): a bad one is a coded error at the call, with
 * nothing sent and nothing written, rather than a failure when the answer arrives, after a guess
 * was shown or a retry run started.
 */
export function checkEndpointOptions(endpoint: EndpointLike, key: string, installed: ReadonlySet<string>): void {
  checkSharedOptions(endpoint, key);
  checkFlag(endpoint.sideEffect, process.env.NODE_ENV !== 'production' && 'sideEffect', key);
  // Options that need a feature the cache was built without (FEATURE_MISSING).
  if (endpoint.retry && !endpoint.sideEffect && !installed.has('retries'))
    throw featureMissing('retries', process.env.NODE_ENV !== 'production' && `The endpoint ${key}, with retry,`);
  if (typeof endpoint.getOptimisticResponse === 'function' && !installed.has('optimisticUpdates'))
    throw featureMissing(
      'optimisticUpdates',
      process.env.NODE_ENV !== 'production' && `The endpoint ${key}, with getOptimisticResponse,`,
    );
}

/** The set-up error of a method or endpoint option whose feature the cache was built without. */
export function featureMissing(name: string, use: DevText): Error {
  return setupError(
    'FEATURE_MISSING',
    process.env.NODE_ENV !== 'production' && [
      `${use} needs the ${name} feature, but this cache was built without it.`,
      `Add it where the cache is built: createLeanCache({ features: [${name}, ...] }) (import { ${name} } from 'lenscache'), or use createCache(), which has every feature.`,
    ],
    name,
  );
}

/**
 * How far ahead of the wall clock a stamp handed in may be: a day. Clocks of a server and a
 * browser disagree by seconds or minutes; a stamp further ahead would outrank every write the
 * store starts until that time comes.
 */
const STAMP_AHEAD = 86_400_000;

/**
 * A start stamp handed in (`resolve`'s `fetchedAt` and `start`): a number of milliseconds the
 * clock can still count up from (a safe integer: past 2^53 adding 1 changes nothing, and the
 * store's clock would stop), at most a day ahead of the clock. Anything else is INVALID_OPTION.
 */
export function checkStamp(value: unknown, name: DevText): void {
  const safe = typeof value === 'number' && Math.abs(value) <= Number.MAX_SAFE_INTEGER;
  if (safe && value <= Date.now() + STAMP_AHEAD) return;
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      safe
        ? `cache.resolve was given ${name}: ${value}, more than a day ahead of the clock (Date.now() is ${Date.now()}); it would outrank every write until then.`
        : `cache.resolve was given ${name}: ${describe(value)}; a start stamp is a number of milliseconds within Number.MAX_SAFE_INTEGER.`,
      `Pass the time the request started, e.g. ${name}: Date.now() taken before sending it.`,
    ],
  );
}
