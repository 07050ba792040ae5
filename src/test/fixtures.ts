/**
 * Fixtures and interceptors: the answers a test gives the cache's requests (docs/testing.md), and
 * how a request finds its answer: by request key, so a fixture answers exactly the request its
 * endpoint and args would make.
 */

import { describe, setupError } from '../base/errors.js';
import type { EndpointLike } from '../store/endpoint.js';
import type { ArgsOf } from '../store/types.js';

/** A fixture that answers one request (its endpoint and args) with `response`, parsed as JSON. */
export interface SuccessFixture<E extends EndpointLike = EndpointLike> {
  endpoint: E;
  args: ArgsOf<E>;
  /** The body the server would send (JSON). */
  response: unknown;
  error?: undefined;
  /** ms before the answer comes (default: none, the next tick). */
  delay?: number | undefined;
}

/**
 * A fixture that fails one request. An `error` with a numeric `status` (`{ status: 404, body }`)
 * is answered as that HTTP status with `body` as JSON, so the cache stores the NetworkError a
 * real refusal gives; anything else (`new TypeError('Failed to fetch')`) is what `fetch` rejects
 * with, as when the network is down.
 */
export interface ErrorFixture<E extends EndpointLike = EndpointLike> {
  endpoint: E;
  args: ArgsOf<E>;
  error: unknown;
  response?: undefined;
  delay?: number | undefined;
}

/** One request's answer: a success or a failure. */
export type Fixture<E extends EndpointLike = EndpointLike> = SuccessFixture<E> | ErrorFixture<E>;

/**
 * Answers every request its endpoint makes, whatever the args: `response(...args)` is called per
 * request, and what it returns (or resolves to) is the body; what it throws is the failure, read
 * as a fixture's `error` is.
 */
export interface Interceptor<E extends EndpointLike = EndpointLike> {
  endpoint: E;
  response(...args: ArgsOf<E>): unknown;
  delay?: number | undefined;
}

/** What a test may hand the helpers: fixtures and interceptors, in any order. */
export type FixtureLike = Fixture<any> | Interceptor<any>;

/** What a request is answered with, before it is made into a `Response`. */
export type Answer = { ok: true; body: unknown } | { ok: false; error: unknown };

/** Whether `fixture` is an interceptor (its `response` computes the body per request). */
export function isInterceptor(fixture: FixtureLike): fixture is Interceptor<any> {
  return typeof fixture.response === 'function' && !('args' in fixture);
}

/** The key `endpoint` makes for `args`, or `undefined` when those args make none (a missing path param). */
function keyOf(endpoint: EndpointLike, args: readonly unknown[]): string | undefined {
  try {
    return endpoint.key(...args);
  } catch {
    return undefined;
  }
}

/**
 * The fixture that answers a request of `endpoint` for `args`: the first fixture whose endpoint
 * and args make the same key, else the first interceptor whose endpoint makes that key for these
 * args (the same method and URL pattern, or the same endpoint).
 */
export function findFixture(
  fixtures: readonly FixtureLike[],
  endpoint: EndpointLike,
  args: readonly unknown[],
): FixtureLike | undefined {
  const key = keyOf(endpoint, args);
  if (key === undefined) return undefined;
  const exact = fixtures.find(
    fixture => !isInterceptor(fixture) && keyOf(fixture.endpoint, fixture.args as unknown[]) === key,
  );
  return exact ?? fixtures.find(fixture => isInterceptor(fixture) && keyOf(fixture.endpoint, args) === key);
}

/** The answer `fixture` gives to `args`: an interceptor computes it now. */
export async function answerOf(fixture: FixtureLike, args: readonly unknown[]): Promise<Answer> {
  if (!isInterceptor(fixture))
    return 'error' in fixture ? { ok: false, error: fixture.error } : { ok: true, body: fixture.response };
  try {
    return { ok: true, body: await fixture.response(...args) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** How a fixture is named in a message: its request key, or its endpoint's pattern for an interceptor. */
function nameOf(fixture: FixtureLike): string {
  const endpoint = fixture.endpoint as EndpointLike & { method?: unknown; path?: unknown };
  if (!isInterceptor(fixture))
    return keyOf(endpoint, fixture.args as unknown[]) ?? `${describe(fixture.args)} (args that make no key)`;
  const pattern =
    typeof endpoint.path === 'string' ? `${String(endpoint.method ?? 'GET')} ${endpoint.path}` : describe(endpoint);
  return `${pattern} (interceptor)`;
}

/** The fixtures of a message, one a line, bounded. */
function listed(fixtures: readonly FixtureLike[]): string {
  if (fixtures.length === 0) return ' none.';
  const shown = fixtures.slice(0, 20).map(fixture => `\n  - ${nameOf(fixture)}`);
  return `${shown.join('')}${fixtures.length > 20 ? `\n  … and ${fixtures.length - 20} more` : ''}`;
}

/** The error of a request no fixture answers (FIXTURE_MISSING): what was asked, and what exists. */
export function missingFixture(endpoint: EndpointLike, args: readonly unknown[], fixtures: readonly FixtureLike[]) {
  const key = keyOf(endpoint, args) ?? describe(args);
  return setupError(
    'FIXTURE_MISSING',
    process.env.NODE_ENV !== 'production' && [
      `No fixture answers the request ${key} (args ${JSON.stringify(args)}). The fixtures given answer:${listed(fixtures)}`,
      'Add a fixture { endpoint, args, response } with args that make this key, or an interceptor { endpoint, response(...args) } for the endpoint; or check the args the component requests with.',
    ],
    key,
  );
}

/** INVALID_OPTION for what is not a list of fixtures, thrown where the list is given. */
export function checkFixtures(fixtures: unknown, where: string): readonly FixtureLike[] {
  const wrong = !Array.isArray(fixtures)
    ? fixtures
    : fixtures.find(
        fixture =>
          typeof fixture !== 'object' ||
          fixture === null ||
          typeof (fixture as { endpoint?: { key?: unknown } }).endpoint?.key !== 'function' ||
          !('args' in fixture || typeof (fixture as { response?: unknown }).response === 'function'),
      );
  if (Array.isArray(fixtures) && wrong === undefined) return fixtures as FixtureLike[];
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `${where} takes a list of fixtures, but received ${describe(wrong)}${Array.isArray(fixtures) ? ' in the list' : ''}.`,
      'Give fixtures as { endpoint, args, response } or { endpoint, args, error }, and interceptors as { endpoint, response(...args) }.',
    ],
  );
}
