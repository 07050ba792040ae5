/**
 * Every error lenscache throws or stores: one class, stable string codes, and messages that say
 * what happened, what was expected, and how to fix it. Each code has a section in docs/errors.md.
 */

/** The stable codes, each with a section in docs/errors.md; `ErrorCode` is made from this list. */
const CODES = [
  'MISSING_PK',
  'SCALAR_ENTITY_REQUIRED',
  'SCALAR_PK_UNDERIVABLE',
  'LENS_UNDEFINED',
  'INVALID_LENS',
  'VALIDATION_FAILED',
  'UNEXPECTED_INPUT',
  'MAX_DEPTH_EXCEEDED',
  'INVALID_SCHEMA',
  'ENTITY_KEY_REQUIRED',
  'CACHE_NOT_MOUNTED',
  'DUPLICATE_REDUCER_PATH',
  'CACHE_PROVIDER_MISSING',
  'MUTATION_IN_HOOK',
  'STILL_INVALID',
  'NETWORK_ERROR',
  'INVALID_RESPONSE',
  'INVALID_ACTION',
  'NON_ERROR_THROWN',
  'STREAM_FAILED',
  'STREAM_DROPPED',
  'INVALID_OPTION',
  'FEATURE_MISSING',
  'MIDDLEWARE_MISSING',
  'TIMEOUT',
  'FIXTURE_MISSING',
  'OUTBOX_FULL',
] as const;

export type ErrorCode = (typeof CODES)[number];

/**
 * The stable codes by name (`ErrorCode.MISSING_PK === 'MISSING_PK'`); each has a section in docs/errors.md.
 * Public API only: call sites write the code as a string (typed `ErrorCode`), so a bundle that
 * does not import this table leaves it out (both calls are marked pure).
 */
export const ErrorCode = /* @__PURE__ */ Object.fromEntries(/* @__PURE__ */ CODES.map(code => [code, code])) as {
  readonly [Code in ErrorCode]: Code;
};

/**
 * Where a message sends the reader: the error table shipped inside the package, so the link works
 * offline and for every installed version (a hosted copy could move or describe another version).
 */
const DOCS = 'node_modules/lenscache/docs/errors.md';

/** The line that ends every message: `See node_modules/lenscache/docs/errors.md#<code>`. */
export function docsLink(code: ErrorCode): string {
  return `See ${DOCS}#${code.toLowerCase()}`;
}

/** The plain record an error is stored as in state (never an Error object: state stays JSON). */
export interface ErrorRecord {
  name: string;
  message: string;
  code?: string;
  status?: number;
}

/**
 * The base class of every error lenscache throws. `code` is stable across versions; `status` is
 * 400 for input that could not be normalized, the HTTP status for network errors.
 */
export class LensCacheError extends Error {
  declare readonly code: string;
  declare readonly status: number | undefined;

  constructor(code: string, message: string, status?: number) {
    super(message);
    this.name = 'LensCacheError';
    this.code = code;
    this.status = status;
  }
}

/**
 * A development message: what happened, then how to fix it. Call sites pass
 * `process.env.NODE_ENV !== 'production' && [what, fix]`, written out where they stand so that a
 * bundler folds it to `false` and drops the prose (and whatever builds it) from production bundles.
 */
export type DevMessage = readonly [what: string, fix: string] | false;

/** A piece of a development message, passed on to the function that builds the error; `false` in production. */
export type DevText = string | false;

/**
 * The message of an error. With a development message: what happened, how to fix it, and the docs
 * link. In production builds: the code, a short detail that identifies the culprit where the call
 * site has one cheaply (an entity key, a pk), and the docs link, e.g.
 * `MISSING_PK [User]. See node_modules/lenscache/docs/errors.md#missing_pk (a development build gives the full message)`.
 */
export function errorMessage(code: ErrorCode, message: DevMessage, detail?: string): string {
  return message
    ? `${message[0]}\n${message[1]}\n${docsLink(code)}`
    : `${code}${detail === undefined ? '' : ` [${detail}]`}. ${docsLink(code)} (a development build gives the full message)`;
}

/** Normalize errors all carry status 400: the input, not the cache, is at fault. */
export function inputError(code: ErrorCode, message: DevMessage, detail?: string): LensCacheError {
  return new LensCacheError(code, errorMessage(code, message, detail), 400);
}

/** Errors in how a schema or the cache is set up; thrown where the set-up happens. */
export function setupError(code: ErrorCode, message: DevMessage, detail?: string): LensCacheError {
  return new LensCacheError(code, errorMessage(code, message, detail));
}

/** The plain record stored in state for an error. */
export function toErrorRecord(error: unknown): ErrorRecord {
  if (isErrorLike(error)) {
    const record: ErrorRecord = { name: error.name, message: error.message };
    const { code, status } = error as { code?: unknown; status?: unknown };
    if (typeof code === 'string') record.code = code;
    if (typeof status === 'number') record.status = status;
    return record;
  }
  return { name: 'Error', message: typeof error === 'string' ? error : describe(error) };
}

/**
 * An Error, or an object that looks like one: errors from another realm (Node's own `fetch` and
 * `DOMException` under a test runner's sandbox, an iframe) fail `instanceof Error`.
 */
export function isErrorLike(value: unknown): value is Error {
  if (value instanceof Error) return true;
  const candidate = value as { name?: unknown; message?: unknown } | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.message === 'string'
  );
}

/** Rebuilds an Error from a stored record. */
export function fromErrorRecord(record: ErrorRecord): LensCacheError {
  const error = new LensCacheError(record.code ?? 'UNKNOWN', record.message, record.status);
  error.name = record.name;
  return error;
}

const PREVIEW = 60;

/** A value's kind and a bounded preview, for messages: `string "abc…"`, `array(3)`, `null`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > PREVIEW ? value.slice(0, PREVIEW) + '…' : value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return `function ${(value as { name?: string }).name || '(anonymous)'}`;
    case 'symbol':
      return value.toString();
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype) {
    return `an instance of ${(proto.constructor as { name?: string } | undefined)?.name || 'a class'}`;
  }
  const keys = Object.keys(value as object);
  const shown = keys.slice(0, 5).join(', ');
  return `object {${shown}${keys.length > 5 ? ', …' : ''}}`;
}

/** Hints at the most common mistake: a response body passed as text instead of parsed JSON. */
export function jsonStringHint(value: unknown): string {
  if (typeof value !== 'string') return '';
  const text = value.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return '';
  try {
    JSON.parse(text);
    return ' It is a string that parses as JSON: was the response not parsed as JSON? Pass JSON.parse(text), or use response.json().';
  } catch {
    return '';
  }
}
