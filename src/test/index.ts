/**
 * lenscache/test: fixtures answering a test store's requests, its starting state, and React
 * Testing Library's render and renderHook under the providers. Needs `@testing-library/react`.
 * @see docs/testing.md
 */
export type { Fixture, SuccessFixture, ErrorFixture, Interceptor, FixtureLike } from './fixtures.js';
export { mockFetch, type MockFetch } from './mockFetch.js';
export { mockInitialState } from './mockInitialState.js';
export { renderWithCache, renderCacheHook, type CacheTestOptions, type CacheTestResult } from './render.js';
