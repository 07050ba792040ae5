/**
 * createCache's options (docs/getting-started.md) and the request options of a store
 * (docs/authentication.md), checked where they are given, all in the tables below: each bad one
 * is INVALID_OPTION naming it, and nothing is created.
 */

import { checked, isFunction, isLength, isTimeout } from '../base/endpointOptions.js';
import type { RequestOptions } from '../rest/requestContext.js';
import { describe, setupError, type DevText } from '../base/errors.js';
import type { Controller } from './runtime/Controller.js';

/** The default `gcTime`: five minutes, as TanStack Query. */
export const DEFAULT_GC_TIME = 5 * 60_000;

type Check = (value: any) => boolean;
/** A whole number from 1 up: `NaN` would read refs as ids or let a memo grow without bound. */
const isCount: Check = value => Number.isSafeInteger(value) && value >= 1;
/** An `http:` or `https:` URL with a host. */
const isHttpUrl: Check = value => typeof value === 'string' && /^https?:\/\/[^\s/?#]/.test(value);

/** createCache's own options with a check. */
export const CACHE_OPTIONS = {
  reducerPath: value => typeof value === 'string' && value !== '',
  maxEntityDepth: isCount,
  argsCacheSize: isCount,
  lensCacheSize: isCount,
  gcTime: isLength,
  dataExpiryLength: isLength,
  errorExpiryLength: isLength,
  onUnauthorized: isFunction,
  isUnauthorized: isFunction,
} satisfies Record<string, Check>;

/** The request options, of a cache and of a store. */
export const REQUEST_OPTIONS = {
  // A path: `/api`, not `//host` (another host, without a scheme).
  baseUrl: value => isHttpUrl(value) || (value?.[0] === '/' && value[1] !== '/'),
  prepareHeaders: isFunction,
  fetch: isFunction,
  credentials: value => ['omit', 'same-origin', 'include'].includes(value),
  trustedOrigins: value => Array.isArray(value) && value.every(isHttpUrl),
  timeout: isTimeout,
} satisfies Record<keyof RequestOptions, Check>;

type OptionName = keyof typeof CACHE_OPTIONS | keyof typeof REQUEST_OPTIONS;

/** What each option takes, for the development message. */
const TAKES: Record<OptionName, string> | false = process.env.NODE_ENV !== 'production' && {
  reducerPath: "the key the slice is mounted at, a non-empty string, e.g. reducerPath: 'api' (default 'cache')",
  maxEntityDepth: 'a whole number from 1 up, e.g. maxEntityDepth: 64 (the default)',
  argsCacheSize: 'a whole number from 1 up, e.g. argsCacheSize: 100 (the default)',
  lensCacheSize: 'a whole number from 1 up, e.g. lensCacheSize: 16 (the default)',
  gcTime: 'milliseconds from 0 up (or Infinity to keep every response), e.g. gcTime: 60_000',
  dataExpiryLength:
    'milliseconds from 0 up (or Infinity for never): how long what an endpoint without its own dataExpiryLength stores stays valid, e.g. 30_000 (default 60 000)',
  errorExpiryLength:
    'milliseconds from 0 up (or Infinity for never): how long an error an endpoint without its own errorExpiryLength stores stays valid, e.g. 5_000 (default 1 000)',
  onUnauthorized: 'a function, e.g. onUnauthorized: (error, controller) => goToLogin()',
  isUnauthorized: 'a function, e.g. isUnauthorized: error => error.status === 419',
  baseUrl: "an http(s) URL or a path, e.g. baseUrl: 'http://api.internal'",
  prepareHeaders: 'a function (headers, api) => headers',
  fetch: 'a function (input, init, api) => Promise<Response>',
  credentials: "'omit', 'same-origin' or 'include'",
  trustedOrigins: "a list of http(s) URLs, e.g. trustedOrigins: ['https://auth.example.com']",
  timeout: 'milliseconds above 0 (or Infinity), e.g. timeout: 10_000',
};

/**
 * The options of `checks` given in `options` (those not `undefined`), checked by `where`
 * (createCache, cache.middlewareWith, normalize): the result holds only those given, so a
 * store's own replace the cache's and leave the rest.
 */
export function checkedOptions<C extends Partial<Record<OptionName, Check>>>(
  options: object,
  where: DevText,
  checks: C,
): { [N in keyof C]?: any } {
  const given: Record<string, unknown> = {};
  for (const name in checks) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    given[name] = checked(
      value,
      (checks[name] as Check)(value),
      process.env.NODE_ENV !== 'production' &&
        (() => {
          const takes = (TAKES as Record<string, string>)[name];
          return [
            `${where}({ ${name} }) takes ${takes}, but received ${describe(value)}.`,
            `Pass ${takes}, or leave it out.`,
          ];
        }),
      'INVALID_OPTION',
    );
  }
  return given as never;
}

/** `maxEntityDepth` of `where` (normalize, denormalize), checked; 64 when left out. */
export function maxDepthOf(value: unknown, where: string): number {
  return checkedOptions({ maxEntityDepth: value }, where, { maxEntityDepth: isCount }).maxEntityDepth ?? 64;
}

/** The features lenscache exports, by the name each carries (docs/features.md); checked in development. */
const FEATURES = [
  'garbageCollection',
  'liveData',
  'optimisticUpdates',
  'retries',
  'pagination',
  'crossTab',
  'outbox',
  'bursts',
];

/** `createLeanCache`'s `features`, checked: a list of the feature objects lenscache exports. */
export function featuresOf<F extends object>(features: readonly F[] | undefined): readonly F[] {
  if (features === undefined) return [];
  const list: readonly unknown[] = Array.isArray(features) ? features : [features];
  const bad = list.findIndex(item => {
    const feature = item as { name?: unknown; install?: unknown } | null | undefined;
    // (Production checks the shape only: each name is checked in development.)
    return (
      typeof feature?.install !== 'function' ||
      (process.env.NODE_ENV !== 'production' && !FEATURES.includes(feature.name as string))
    );
  });
  // A feature is installed once, however often it is listed (twice, it would write each guess twice).
  if (bad === -1 && list === features) return [...new Set(features)];
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `createLeanCache({ features }) takes a list of the features lenscache exports (${FEATURES.slice(0, -3).join(', ')} and what crossTab(), outbox() and bursts() return), but ${list === features ? `item ${bad} is ${describe(list[bad === -1 ? 0 : bad])}` : `it received ${describe(features)}`}.`,
      `Import the features and pass them, not their names: import { ${FEATURES[0]} } from 'lenscache'; createLeanCache({ features: [${FEATURES[0]}] }).`,
    ],
  );
}

/** What a cache does when a request it sent fails as unauthorized (docs/store.md, "Reset on 401"). */
export interface UnauthorizedPolicy {
  isUnauthorized(error: unknown): boolean;
  onUnauthorized(error: unknown, controller: Controller): void;
}

/** The default `isUnauthorized`: the server answered 401 (a NetworkError's `status`, or any error's). */
function answered401(error: unknown): boolean {
  return (error as { status?: unknown } | null)?.status === 401;
}

/**
 * The reset on 401 from createCache's checked options: off without `onUnauthorized`;
 * `isUnauthorized` alone is refused (it would reset nothing).
 */
export function unauthorizedOf(given: {
  onUnauthorized?: UnauthorizedPolicy['onUnauthorized'];
  isUnauthorized?: UnauthorizedPolicy['isUnauthorized'];
}): UnauthorizedPolicy | undefined {
  const { onUnauthorized, isUnauthorized } = given;
  if (onUnauthorized) return { isUnauthorized: isUnauthorized ?? answered401, onUnauthorized };
  if (isUnauthorized) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        'createCache({ isUnauthorized }) was given without onUnauthorized: alone it would reset nothing.',
        'Add onUnauthorized: (error, controller) => ... (what the app does once the store is reset), or leave isUnauthorized out.',
      ],
    );
  }
  return undefined;
}
