/**
 * What a store adds to each request it sends (docs/authentication.md): the base URL relative URLs
 * resolve against, the headers and credentials of its user, and the `fetch` to send with. None of
 * it is part of a key, and headers and credentials go only to the store's own origin.
 */

/** What the store's request options are given with each request. */
export interface RequestApi {
  /** The store's state now: read a token from it. */
  getState(): unknown;
  dispatch(action: any): any;
  /** The endpoint being sent (a RestEndpoint, or any endpoint object), and its args. */
  endpoint: { key(...args: any[]): string; readonly sideEffect?: boolean | undefined; readonly schema?: unknown };
  args: readonly unknown[];
  /**
   * Whether the store's headers and credentials go with this request (its URL is relative, or on
   * the store's origin or a trusted one): a `fetch` option tells a 401 of its own from another site's.
   */
  trusted?: boolean;
}

/** Request options of a cache (`createCache`) and of one store (`cache.middlewareWith`). */
export interface RequestOptions {
  /**
   * What relative URLs resolve against in this store: `http://api.internal` in a server render,
   * nothing in the browser (the page's origin). Not part of a key.
   */
  baseUrl?: string | undefined;
  /**
   * The headers of every request to the store's origin (RTK Query's): set an `authorization`
   * header from the state, return the headers (or nothing, having changed them).
   */
  prepareHeaders?: ((headers: Headers, api: RequestApi) => Headers | void | Promise<Headers | void>) | undefined;
  /** `fetch`'s `credentials` for requests to the store's origin (`'include'` sends cookies across origins). */
  credentials?: RequestCredentials | undefined;
  /** The origins besides the base URL's (and the page's) that `prepareHeaders` and `credentials` apply to. */
  trustedOrigins?: readonly string[] | undefined;
  /** Sends every request instead of the global `fetch`; it is given the request's api third. */
  fetch?: ((input: string, init: RequestInit, api: RequestApi) => Promise<Response>) | undefined;
  /** ms each try may take, for endpoints without their own `timeout` (TIMEOUT; default: none). */
  timeout?: number | undefined;
}

/** What `endpoint.request` is given by the store that sends it: the store's options and the request. */
export type RequestContext = RequestOptions & RequestApi;

/** A URL with a scheme (`https:`) or a host (`//cdn`): not resolved against the base URL. */
const ABSOLUTE = /^([a-z][a-z\d+.-]*:|\/\/)/i;

/**
 * The URL to send `url` to, and whether the store's headers and credentials go with it: to a
 * relative URL, or to the origin of the base URL, of the page, or of a trusted origin.
 */
function placeOf(url: string, context: RequestOptions): [to: string, trusted: boolean] {
  const base = context.baseUrl;
  if (!ABSOLUTE.test(url)) return [base ? `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}` : url, true];
  const own = [base, (globalThis as { location?: { href: string } }).location?.href, ...(context.trustedOrigins ?? [])];
  try {
    const origin = new URL(url, own[0] ?? own[1]).origin;
    return [url, own.some(place => place !== undefined && ABSOLUTE.test(place) && new URL(place).origin === origin)];
  } catch {
    // A URL (or a trusted origin) no URL parser reads: fetch fails on it, with nothing of the store's sent.
    return [url, false];
  }
}

type Send = (input: string, init: RequestInit) => Promise<Response>;

/**
 * What a request of the store sends: `url` resolved against the base URL; `init` with the store's
 * headers (`prepareHeaders`) and credentials where they may go; the store's `fetch`, if any.
 */
export async function forStore(
  url: string,
  init: RequestInit,
  context: RequestContext,
): Promise<[input: string, init: RequestInit, send: Send | undefined]> {
  const [input, trusted] = placeOf(url, context);
  context.trusted = trusted;
  const { prepareHeaders, credentials, fetch } = context;
  if (trusted && (prepareHeaders || credentials)) {
    const headers = new Headers(init.headers);
    init = {
      ...init,
      headers: (prepareHeaders && (await prepareHeaders(headers, context))) || headers,
      credentials: init.credentials ?? credentials,
    };
  }
  return [input, init, fetch && ((input, init) => fetch(input, init, context))];
}
