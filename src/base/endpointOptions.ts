/**
 * The live-data options of an endpoint (docs/live-data.md): how often subscribers poll it
 * (`pollFrequency`), and how a failed read is tried again (`retry`). Checked where a RestEndpoint
 * is made, and where any other endpoint object is subscribed to or fetched; which failures are
 * worth another try is decided here too.
 */

import { isObject } from './dict.js';
import { describe, type ErrorCode, LensCacheError, setupError, type DevMessage, type DevText } from './errors.js';

/** How a failed read is tried again: see docs/live-data.md#retries. */
export interface RetryOptions {
  /** How many times a failed request is sent again (0: never). Up to `attempts + 1` requests in all. */
  readonly attempts: number;
  /** ms to wait before retry number `attempt` (1 for the first retry). Default: 1 s, doubling, at most 30 s. */
  readonly delay?: (attempt: number) => number;
}

/** The default wait before retry `attempt`: 1 s, 2 s, 4 s, … capped at 30 s. */
export function defaultRetryDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** (attempt - 1), 30_000);
}

/**
 * `value` if `fine`, else `code` (INVALID_SCHEMA unless given) with the development message `message()`; every check below is
 * one call. The message is a function so a passing check builds no text in development either.
 */
export function checked<T>(
  value: T,
  fine: boolean,
  message: false | (() => DevMessage),
  code: ErrorCode = 'INVALID_SCHEMA',
): T {
  if (fine) return value;
  throw setupError(code, message && message());
}

/** Throws INVALID_SCHEMA unless `frequency` is a positive, finite number of ms (or undefined). */
export function checkPollFrequency(frequency: unknown, where: DevText): number | undefined {
  return checked(
    frequency as number | undefined,
    frequency === undefined || (Number.isFinite(frequency) && (frequency as number) > 0),
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `pollFrequency of ${where} must be a positive number of milliseconds, but it is ${describe(frequency)}.`,
        'Set it to the time between refetches while something subscribes, e.g. pollFrequency: 5_000, or leave it out.',
      ]),
  );
}

/**
 * Throws INVALID_SCHEMA unless `retry` has a whole, finite `attempts` ≥ 0 (`Infinity` would retry
 * without end) and, if given, a `delay` function.
 */
export function checkRetry(retry: unknown, where: DevText): RetryOptions | undefined {
  return checkShared('retry', retry, where) as RetryOptions | undefined;
}

/**
 * What `delay(attempt)` returned, checked: a finite number of ms from 0 up (longer than a timer
 * takes is fine, see base/timers.ts). Anything else throws INVALID_SCHEMA; `what` names the option.
 */
export function checkDelay(ms: unknown, attempt: number, what: DevText): number {
  return checked(
    ms as number,
    Number.isFinite(ms) && (ms as number) >= 0,
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `${what}(${attempt}) returned ${describe(ms)}, not a number of milliseconds (finite, 0 or more), so nothing was sent again.`,
        `Make ${what}(attempt) return the wait in ms for every attempt, e.g. attempt => 500 * 2 ** attempt.`,
      ]),
  );
}

/**
 * Whether a failed read is worth sending again: a server error (status 500 or more), or a failure
 * to reach the server at all (fetch rejected without a status: a refused or reset connection, a
 * DNS failure). Never a 4xx (the request itself is wrong), nor lenscache's own errors without a
 * status (a 2xx body that is not JSON would fail the same way again).
 */
export function isRetryable(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return status >= 500;
  // A request that timed out may well answer in time when sent again, as after a network failure.
  if (error instanceof LensCacheError) return error.code === 'TIMEOUT';
  const name = (error as { name?: unknown } | null)?.name;
  return name !== 'AbortError' && name !== 'TimeoutError';
}

/** A flag option (`invalidIfStale`): `true`, `false` or nothing; anything else is refused where the endpoint is made. */
export function checkFlag(
  flag: boolean | undefined,
  option: DevText,
  where: DevText,
  code: ErrorCode = 'INVALID_SCHEMA',
  fallback = false,
): boolean | undefined {
  return checked(
    flag,
    flag === undefined || typeof flag === 'boolean',
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `${option} of ${where} must be true or false, but it is ${describe(flag)}.`,
        `Write ${option}: ${!fallback}, or leave it out (${fallback}).`,
      ]),
    code,
  );
}

/** The methods a RestEndpoint sends. */
const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** An endpoint's `method`: one of METHODS in any case (`'get'` is GET), or nothing (GET); anything else is refused where the endpoint is made. */
export function checkMethod(method: unknown, where: DevText): string {
  const upper = method === undefined ? 'GET' : typeof method === 'string' ? method.toUpperCase() : '';
  return checked(
    upper,
    METHODS.includes(upper),
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `method of ${where} must be one of ${METHODS.join(', ')}, but it is ${describe(method)}.`,
        "Write e.g. method: 'POST', or leave it out (GET).",
      ]),
  );
}

/** An option naming a param (`paginationField`): a non-empty string, or nothing. */
export function checkParamName<T>(name: T, option: DevText, where: DevText): T {
  return checked(
    name,
    name === undefined || (typeof name === 'string' && name !== ''),
    process.env.NODE_ENV !== 'production' &&
      (() => [
        `${option} of ${where} must name a param, a non-empty string, but it is ${describe(name)}.`,
        `Write e.g. ${option}: 'cursor', or leave it out.`,
      ]),
  );
}

/** How a RestEndpoint reads a 2xx body (docs/RestEndpoint.md#downloads). */
export type ResponseContent = 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';

/** What a response with each `content` is. */
export interface ContentData {
  json: unknown;
  text: string;
  blob: Blob;
  arrayBuffer: ArrayBuffer;
  stream: ReadableStream<Uint8Array>;
}

/** Every `content`; those after `text` are downloads. */
const CONTENTS: readonly unknown[] = ['json', 'text', 'blob', 'arrayBuffer', 'stream'];

/**
 * Whether `content` makes a download: a Blob, bytes or a stream, which a JSON store cannot hold,
 * so the answer goes to the caller only (docs/RestEndpoint.md#downloads).
 */
export const isDownload = (content: unknown): boolean => CONTENTS.indexOf(content) > 1;

/**
 * A `content` option: one of CONTENTS or nothing. Anything but JSON has no schema (it is not
 * normalized), and a download no `getOptimisticResponse` (nothing is stored, so no guess is shown).
 */
function checkContent({ content, schema, getOptimisticResponse }: SharedEndpointOptions, where: DevText): void {
  const at = CONTENTS.indexOf(content);
  checked(
    content,
    // (A schema beside text or a download is refused in development only: in production a
    // download is never normalized, and text fails the schema as any answer of the wrong shape
    // does. A guess beside a download is refused in every build: nothing would take it back.)
    content === undefined ||
      (at >= 0 &&
        (at < 2 || !getOptimisticResponse) &&
        (process.env.NODE_ENV === 'production' || at < 1 || schema == null)),
    process.env.NODE_ENV !== 'production' &&
      (() => [
        at < 0
          ? `content of ${where} must be one of ${CONTENTS.join(', ')}, but it is ${describe(content)}.`
          : `content of ${where} is ${describe(content)}, which is not stored as JSON, but the endpoint has ${schema == null ? 'getOptimisticResponse' : 'a schema'}.`,
        "Write e.g. content: 'blob' without a schema or a guess for a download, content: 'text' for text, or leave it out (JSON or text, by the answer).",
      ]),
  );
}

/** The options any endpoint object may carry that every endpoint checks the same way. */
export interface SharedEndpointOptions {
  readonly content?: unknown;
  readonly schema?: unknown;
  readonly dataExpiryLength?: number | undefined;
  readonly errorExpiryLength?: number | undefined;
  readonly invalidIfStale?: boolean | undefined;
  readonly getOptimisticResponse?: unknown;
  readonly retry?: unknown;
  readonly timeout?: number | undefined;
  readonly maxPages?: number | undefined;
  readonly nextPageParam?: unknown;
  readonly previousPageParam?: unknown;
}

type SharedOption =
  | 'dataExpiryLength'
  | 'errorExpiryLength'
  | 'invalidIfStale'
  | 'getOptimisticResponse'
  | 'retry'
  | 'timeout'
  | 'maxPages'
  | 'nextPageParam'
  | 'previousPageParam';

/** A function (shared with the cache's option checks, as are the two below). */
export const isFunction = (value: unknown): boolean => typeof value === 'function';

/** Milliseconds from 0 up, `Infinity` included. */
export const isLength = (value: unknown): boolean => typeof value === 'number' && value >= 0;

/** A time limit: milliseconds above 0, `Infinity` for none. */
export const isTimeout = (value: unknown): boolean => typeof value === 'number' && value > 0;

/**
 * The shared options but `content`, in the order they are checked, each with its test of a value
 * given (one left out passes): expiry lengths are ms from 0 up (`Infinity` included), a `timeout`
 * ms above 0 (`Infinity` for none), `retry` a whole, finite `attempts` ≥ 0 and a `delay` function if any,
 * `maxPages` a whole number from 1 up, the page params' readers functions.
 */
const SHARED: { readonly [N in SharedOption]: (value: any) => boolean } = {
  dataExpiryLength: isLength,
  errorExpiryLength: isLength,
  invalidIfStale: flag => typeof flag === 'boolean',
  getOptimisticResponse: isFunction,
  retry: (retry: { attempts?: unknown; delay?: unknown }) =>
    isObject(retry) &&
    Number.isInteger(retry.attempts) &&
    (retry.attempts as number) >= 0 &&
    (retry.delay === undefined || isFunction(retry.delay)),
  timeout: isTimeout,
  maxPages: pages => Number.isInteger(pages) && pages > 0,
  nextPageParam: isFunction,
  previousPageParam: isFunction,
};

const lengthMessage = (option: string, length: unknown, where: DevText): DevMessage => [
  `${option} of ${where} must be a number of milliseconds (0 or more, or Infinity), but it is ${describe(length)}.`,
  `Set ${option} to how long a stored answer stays valid, e.g. 60_000, or Infinity for never; or leave it out.`,
];

/** The development message of each check of SHARED that fails, for the endpoint `where`. */
const SHARED_MESSAGES: { readonly [N in SharedOption]: (value: any, where: DevText) => DevMessage } = {
  dataExpiryLength: (length, where) => lengthMessage('dataExpiryLength', length, where),
  errorExpiryLength: (length, where) => lengthMessage('errorExpiryLength', length, where),
  invalidIfStale: (flag, where) => [
    `invalidIfStale of ${where} must be true or false, but it is ${describe(flag)}.`,
    'Write invalidIfStale: true, or leave it out (false).',
  ],
  getOptimisticResponse: (guess, where) => [
    `getOptimisticResponse of ${where} must be a function (snap, ...args) => value, but it is ${describe(guess)}.`,
    'Pass a function returning the value to show while the request is in flight, e.g. getOptimisticResponse: (snap, params, body) => body, or leave it out.',
  ],
  retry: (retry, where) => [
    `retry of ${where} must be { attempts, delay? } with a whole, finite number of attempts (0 or more) and delay(attempt) a function, but it is ${describe(retry)} (attempts: ${describe(retry?.attempts)}, delay: ${describe(retry?.delay)}).`,
    'Write e.g. retry: { attempts: 3, delay: attempt => 500 * 2 ** attempt }, or leave retry out for no retries.',
  ],
  timeout: (ms, where) => [
    `timeout of ${where} must be a number of milliseconds above 0 (or Infinity), but it is ${describe(ms)}.`,
    'Set how long a request may take before it fails with TIMEOUT, e.g. timeout: 10_000, or leave it out (no limit).',
  ],
  maxPages: (pages, where) => [
    `maxPages of ${where} must be a whole number of pages, 1 or more, but it is ${describe(pages)}.`,
    'Set it to the most pages the list should hold, e.g. maxPages: 3, or leave it out for no limit.',
  ],
  nextPageParam: (read, where) => pageParamMessage('nextPageParam', read, where),
  previousPageParam: (read, where) => pageParamMessage('previousPageParam', read, where),
};

const pageParamMessage = (option: string, read: unknown, where: DevText): DevMessage => [
  `${option} of ${where} must be a function page => param, but it is ${describe(read)}.`,
  `Write e.g. ${option}: page => page.${option === 'nextPageParam' ? 'next' : 'previous'}Cursor, or leave it out (the page's own member is read).`,
];

/** `value` of the shared option `name`, checked (INVALID_SCHEMA); left out, it allocates nothing. */
function checkShared(name: SharedOption, value: unknown, where: DevText): unknown {
  return value === undefined
    ? value
    : checked(
        value,
        SHARED[name](value),
        process.env.NODE_ENV !== 'production' && (() => SHARED_MESSAGES[name](value, where)),
      );
}

/**
 * Checks the options of `SharedEndpointOptions` (INVALID_SCHEMA); `where` names the endpoint in
 * messages. A RestEndpoint runs it when it is made, and the cache before each request.
 */
export function checkSharedOptions(options: SharedEndpointOptions, where: DevText): void {
  for (const name in SHARED) checkShared(name as SharedOption, options[name as SharedOption], where);
  checkContent(options, where);
}
