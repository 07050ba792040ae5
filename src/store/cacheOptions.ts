/**
 * createCache's options that need a check beyond their type (docs/getting-started.md): each
 * bad one is INVALID_OPTION, and nothing is created.
 */

import { checked, checkTimeout } from '../base/endpointOptions.js';
import type { RequestOptions } from '../rest/requestContext.js';
import { describe, setupError, type DevMessage } from '../base/errors.js';
import { DEFAULT_EXPIRY, type ExpiryDefaults } from './endpoint.js';
import type { Controller } from './runtime/Controller.js';

/** The default `gcTime`: five minutes, as TanStack Query. */
export const DEFAULT_GC_TIME = 5 * 60_000;

/**
 * A createCache option: `fallback` when left out, the value when `fine`, else INVALID_OPTION with
 * the development `message()`. Every option below is one call.
 */
function optionOf<T>(value: unknown, fallback: T, fine: boolean, message: false | (() => DevMessage)): T {
  return value === undefined ? fallback : checked(value as T, fine, message, 'INVALID_OPTION');
}

/** `createCache`'s `gcTime`, checked: milliseconds from 0 up, `Infinity` included. */
export function gcTimeOf(gcTime: unknown): number {
  return optionOf(
    gcTime,
    DEFAULT_GC_TIME,
    typeof gcTime === 'number' && gcTime >= 0,
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `createCache({ gcTime }) takes milliseconds from 0 up (or Infinity), but received ${describe(gcTime)}.`,
        'Pass a number, e.g. createCache({ gcTime: 60_000 }), or Infinity to keep every response.',
      ]),
  );
}

/** `createCache`'s `dataExpiryLength` and `errorExpiryLength`, checked: milliseconds from 0 up, `Infinity` included. */
export function expiryDefaultsOf(options: { dataExpiryLength?: unknown; errorExpiryLength?: unknown }): ExpiryDefaults {
  return {
    dataExpiryLength: lengthOf(options.dataExpiryLength, 'dataExpiryLength', DEFAULT_EXPIRY.dataExpiryLength),
    errorExpiryLength: lengthOf(options.errorExpiryLength, 'errorExpiryLength', DEFAULT_EXPIRY.errorExpiryLength),
  };
}

function lengthOf(length: unknown, option: string, fallback: number): number {
  return optionOf(
    length,
    fallback,
    typeof length === 'number' && length >= 0,
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `createCache({ ${option} }) takes milliseconds from 0 up (or Infinity), but received ${describe(length)}.`,
        `Pass how long what an endpoint without its own ${option} stores stays valid, e.g. createCache({ ${option}: 30_000 }), Infinity for never, or leave it out (${fallback} ms).`,
      ]),
  );
}

/**
 * A count option (`maxEntityDepth`, `argsCacheSize`, `lensCacheSize`), checked: a whole number
 * from 1 up. `NaN` would read refs as ids or let a memo grow without bound; `where` names the call.
 */
export function countOf(value: unknown, option: string, fallback: number, where = 'createCache'): number {
  return optionOf(
    value,
    fallback,
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 1,
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `The ${option} option of ${where} takes a whole number from 1 up, but received ${describe(value)}.`,
        `Pass a whole number, e.g. ${option}: ${fallback}, or leave it out (${fallback}).`,
      ]),
  );
}

/** `createCache`'s `reducerPath`, checked: a non-empty string (the slice's key in the root state). */
export function reducerPathOf(path: unknown): string {
  return optionOf(
    path,
    'cache',
    typeof path === 'string' && path !== '',
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `createCache({ reducerPath }) takes the key the slice is mounted at, a non-empty string, but received ${describe(path)}.`,
        "Pass e.g. createCache({ reducerPath: 'api' }), or leave it out ('cache').",
      ]),
  );
}

/** The features lenscache exports, by the name each carries (docs/features.md). */
const FEATURES = ['garbageCollection', 'liveData', 'optimisticUpdates', 'retries'];

/** `createLeanCache`'s `features`, checked: a list of the feature objects lenscache exports. */
export function featuresOf<F extends object>(features: readonly F[] | undefined): readonly F[] {
  if (features === undefined) return [];
  const list: readonly unknown[] = Array.isArray(features) ? features : [features];
  const bad = list.findIndex(item => {
    const { name, install } = (item ?? {}) as { name?: unknown; install?: unknown };
    return typeof install !== 'function' || !FEATURES.includes(name as string);
  });
  // A feature is installed once, however often it is listed (twice, it would write each guess twice).
  if (bad === -1 && list === features) return [...new Set(features)];
  const item = list[bad === -1 ? 0 : bad];
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `createLeanCache({ features }) takes a list of the features lenscache exports (${FEATURES.join(', ')}), but ${list === features ? `item ${bad} is ${describe(item)}` : `it received ${describe(features)}`}.`,
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
 * `createCache`'s `onUnauthorized` and `isUnauthorized`, checked: functions, and `isUnauthorized`
 * only beside `onUnauthorized` (alone it would do nothing). Undefined without `onUnauthorized`: off.
 */
export function unauthorizedOf(options: {
  onUnauthorized?: unknown;
  isUnauthorized?: unknown;
}): UnauthorizedPolicy | undefined {
  const { onUnauthorized, isUnauthorized } = options;
  for (const [name, value] of [
    ['onUnauthorized', onUnauthorized],
    ['isUnauthorized', isUnauthorized],
  ] as const) {
    if (value === undefined || typeof value === 'function') continue;
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `createCache({ ${name} }) takes a function, but received ${describe(value)}.`,
        'Write e.g. createCache({ onUnauthorized: (error, controller) => goToLogin() }), or leave it out.',
      ],
    );
  }
  if (onUnauthorized === undefined) {
    if (isUnauthorized === undefined) return undefined;
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        'createCache({ isUnauthorized }) was given without onUnauthorized: alone it would reset nothing.',
        'Add onUnauthorized: (error, controller) => ... (what the app does once the store is reset), or leave isUnauthorized out.',
      ],
    );
  }
  return {
    isUnauthorized: (isUnauthorized as UnauthorizedPolicy['isUnauthorized'] | undefined) ?? answered401,
    onUnauthorized: onUnauthorized as UnauthorizedPolicy['onUnauthorized'],
  };
}

const isFunction = (value: unknown) => typeof value === 'function';
/** An `http:` or `https:` URL that parses. */
function isHttpUrl(value: unknown): boolean {
  try {
    return /^https?:$/.test(new URL(value as string).protocol);
  } catch {
    return false;
  }
}

/** Each request option but `timeout`: its name, its check, and (development) what it takes. */
const REQUEST_OPTIONS: readonly [keyof RequestOptions, (value: unknown) => boolean, string | false][] = [
  [
    'baseUrl',
    value => isHttpUrl(value) || (typeof value === 'string' && value.startsWith('/')),
    process.env.NODE_ENV !== 'production' && "an http(s) URL or a path, e.g. baseUrl: 'http://api.internal'",
  ],
  ['prepareHeaders', isFunction, process.env.NODE_ENV !== 'production' && 'a function (headers, api) => headers'],
  ['fetch', isFunction, process.env.NODE_ENV !== 'production' && 'a function (input, init, api) => Promise<Response>'],
  [
    'credentials',
    value => ['omit', 'same-origin', 'include'].includes(value as string),
    process.env.NODE_ENV !== 'production' && "'omit', 'same-origin' or 'include'",
  ],
  [
    'trustedOrigins',
    value => Array.isArray(value) && value.every(isHttpUrl),
    process.env.NODE_ENV !== 'production' &&
      "a list of http(s) URLs, e.g. trustedOrigins: ['https://auth.example.com']",
  ],
];

/**
 * The request options given to `where` (createCache, cache.middlewareWith), checked: only those
 * given, so a store's own replace the cache's and leave the rest. See docs/authentication.md.
 */
export function requestOptionsOf(options: RequestOptions, where: string): RequestOptions {
  const given: Record<string, unknown> = {};
  for (const [name, fine, takes] of REQUEST_OPTIONS) {
    const value = options[name];
    if (value === undefined) continue;
    given[name] = checked(
      value,
      fine(value),
      process.env.NODE_ENV !== 'production' &&
        (() => [
          `${where}({ ${name} }) takes ${takes}, but received ${describe(value)}.`,
          `Pass ${takes}, or leave it out.`,
        ]),
      'INVALID_OPTION',
    );
  }
  if (options.timeout !== undefined) given.timeout = checkTimeout(options.timeout, where, 'INVALID_OPTION');
  return given;
}
