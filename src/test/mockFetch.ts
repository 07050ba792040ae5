/**
 * The fetch stand-in of a test store (docs/testing.md): given as the store's `fetch` option, it
 * answers each request from the fixtures, as a server would (a JSON body, an HTTP status), so the
 * endpoint's own steps (`parseResponse`, `process`, NetworkError) run as they do in the app.
 */

import { describe, setupError } from '../base/errors.js';
import { startTimer } from '../base/timers.js';
import type { RequestApi } from '../rest/requestContext.js';
import { answerOf, checkFixtures, findFixture, missingFixture, type Answer, type FixtureLike } from './fixtures.js';

/** The store's `fetch` option: `(input, init, api)`, answering from fixtures. */
export type MockFetch = (input: string, init: RequestInit, api?: RequestApi) => Promise<Response>;

/**
 * A `fetch` for a store (`createCache({ fetch })` or `cache.middlewareWith({ fetch })`) that
 * answers every request from `fixtures`: the request's endpoint and args are matched by key, after
 * the fixture's `delay`. A request no fixture answers fails with FIXTURE_MISSING, which the cache
 * stores as the request's error, naming the request and the fixtures there are.
 *
 * @example
 * ```ts
 * const cache = createCache({ fetch: mockFetch([{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1' } }]) });
 * ```
 */
export function mockFetch(fixtures: readonly FixtureLike[]): MockFetch {
  const list = checkFixtures(fixtures, 'mockFetch');
  return async (input, init, api) => {
    if (!api?.endpoint) {
      throw setupError(
        'INVALID_OPTION',
        process.env.NODE_ENV !== 'production' && [
          `mockFetch was called for ${String(input)} without the request's endpoint and args, so it cannot pick a fixture.`,
          'Give it to a store as its fetch option: createCache({ fetch: mockFetch(fixtures) }) or cache.middlewareWith({ fetch: mockFetch(fixtures) }), not as the global fetch.',
        ],
      );
    }
    const fixture = findFixture(list, api.endpoint, api.args);
    if (!fixture) throw missingFixture(api.endpoint, api.args, list);
    if (fixture.delay !== undefined) await waitFor(fixture.delay, init.signal ?? undefined);
    // An interceptor computes its answer when the request is answered, after the delay.
    return responseOf(await answerOf(fixture, api.args), input);
  };
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancel = startTimer(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      cancel();
      reject(signal!.reason);
    };
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The response of an answer: 200 and the body as JSON; a failure with a numeric `status`, that
 * status and its `body` (or `{ message }`); any other failure is thrown, as `fetch` rejects.
 */
export function responseOf(answer: Answer, url: string): Response {
  if (answer.ok) return respond(200, '', answer.body, url);
  const failure = answer.error as { status?: unknown; statusText?: unknown; body?: unknown; message?: unknown } | null;
  const status = typeof failure === 'object' && failure !== null ? failure.status : undefined;
  if (typeof status !== 'number') throw answer.error;
  if (!Number.isInteger(status) || status < 300 || status > 599) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `A fixture's error for ${url} has the status ${describe(status)}; a failure's status is an HTTP status from 300 to 599.`,
        'Give e.g. { status: 404, body: { message: "Not found" } }, or a response instead of an error for a success.',
      ],
    );
  }
  return respond(status, typeof failure!.statusText === 'string' ? failure!.statusText : '', bodyOf(failure), url);
}

/** The body of a refusal: the error's `body`, else `{ message }` from an Error. */
function bodyOf(failure: { body?: unknown; message?: unknown } | null): unknown {
  if (failure === null || typeof failure !== 'object') return undefined;
  return 'body' in failure
    ? failure.body
    : typeof failure.message === 'string'
      ? { message: failure.message }
      : undefined;
}

/** The body a NetworkError holds for a refusal: what the endpoint reads back from the response. */
export function failureBody(error: unknown): unknown {
  const body = bodyOf(error as { body?: unknown } | null);
  return body === undefined ? '' : JSON.parse(JSON.stringify(body));
}

/** Statuses whose response may not have a body. */
const EMPTY = [204, 205, 304];

function respond(status: number, statusText: string, body: unknown, url: string): Response {
  const text = body === undefined || EMPTY.includes(status) ? '' : JSON.stringify(body);
  const headers = { 'content-type': 'application/json' };
  // jsdom (Jest's browser environment) has no Response: a stand-in with what endpoints read.
  if (typeof Response === 'function') return new Response(text === '' ? null : text, { status, statusText, headers });
  return new FixtureResponse(text, status, statusText, url) as unknown as Response;
}

/** The part of `Response` an endpoint reads, where the environment has no `Response`. */
class FixtureResponse {
  readonly ok: boolean;
  readonly headers = {
    get: (name: string): string | null => (name.toLowerCase() === 'content-type' ? 'application/json' : null),
    has: (name: string): boolean => name.toLowerCase() === 'content-type',
  };
  readonly redirected = false;
  readonly type = 'basic';
  bodyUsed = false;

  constructor(
    private readonly body: string,
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  async text(): Promise<string> {
    this.bodyUsed = true;
    return this.body;
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  clone(): FixtureResponse {
    return new FixtureResponse(this.body, this.status, this.statusText, this.url);
  }
}
