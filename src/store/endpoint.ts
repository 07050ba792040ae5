/** What the cache needs of an endpoint: any object with `key(...args)` and (optionally) `schema`. */

export interface EndpointLike<S = unknown, A extends readonly unknown[] = any[]> {
  /** The request key: the same args must give the same key. */
  key(...args: A): string;
  schema?: S;
  /** How long a stored response stays valid, in ms (default 60 000). */
  dataExpiryLength?: number;
  /** How long a stored error stays valid, in ms (default 1 000). */
  errorExpiryLength?: number;
  /** Mutations: never shared between callers (default: false). */
  sideEffect?: boolean;
  /** Performs the request (needed by `cache.fetch`); RestEndpoint passes the signal on to `fetch`. */
  request?(args: readonly unknown[], signal?: AbortSignal): Promise<unknown>;
  fetch?(...args: A): Promise<unknown>;
}

export const DEFAULT_DATA_EXPIRY = 60_000;
export const DEFAULT_ERROR_EXPIRY = 1_000;
/** `set` writes no endpoint, so its rows expire after this fixed time (BEHAVIOR §1.4). */
export const SET_EXPIRY = 60_000;

/** Whether the endpoint normalizes its responses; without a schema a response is stored as it is. */
export function hasSchema(endpoint: EndpointLike): boolean {
  return endpoint.schema !== undefined && endpoint.schema !== null;
}
