/**
 * Redux dev checks on a large cache (see docs/architecture.md, "Redux's development checks on
 * large caches"): with RTK's default middleware (immutability and serializability checks on),
 * writing and reading a few thousand rows logs nothing: no non-serializable value, no mutation.
 *
 * RTK also warns when a check takes longer than 32 ms. That warning depends on the machine, and
 * tests must not fail on a slow one, so it is left out here; `npm run dev-checks` measures it.
 */
import { configureStore } from '@reduxjs/toolkit';
import { createCache } from '../../src/index';
import { Post } from '../fixtures/schemas';

const getPosts = { key: (...args: unknown[]) => `GET /posts ${JSON.stringify(args[0] ?? {})}`, schema: [Post] };

function payload() {
  const users = Array.from({ length: 100 }, (_, i) => ({ id: `u${i}`, name: `User ${i}` }));
  const user = (i: number) => ({ ...users[i % users.length]! });
  return Array.from({ length: 1_000 }, (_, i) => ({
    id: `p${i}`,
    title: `Post ${i}`,
    author: user(i),
    comments: [
      { id: `c${i}-a`, body: `First on ${i}`, author: user(i + 1) },
      { id: `c${i}-b`, body: `Second on ${i}`, author: user(i + 2) },
    ],
  }));
}

afterEach(() => {
  jest.restoreAllMocks();
});

/** A plain store with RTK's default middleware, and spies on what it logs. */
function setUp() {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const cache = createCache();
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  return { warn, error, cache, store };
}

/** Calls of a console spy other than RTK's "check took longer than" timing warning. */
function problems(spy: jest.SpyInstance): unknown[][] {
  return spy.mock.calls.filter(call => !/took \d+ms, which is more than the warning threshold/.test(String(call[0])));
}

test('1,000 posts with authors and comments: set, then setResponse, then reads log no warning or error', () => {
  const { warn, error, cache, store } = setUp();

  store.dispatch(cache.set([Post], payload()));
  store.dispatch(cache.setResponse(getPosts, {}, payload()));

  const state = store.getState()[cache.reducerPath];
  expect(Object.keys(state.entities['Post'] ?? {})).toHaveLength(1_000);
  expect(Object.keys(state.entities['Comment'] ?? {})).toHaveLength(2_000);
  expect(Object.keys(state.entities['User'] ?? {})).toHaveLength(100);
  expect(state.endpoints['GET /posts {}']).toHaveLength(1_000);

  const response = cache.selectResponse(store.getState(), getPosts, {});
  expect(response.expiryStatus).toBe('valid');
  expect(response.data).toHaveLength(1_000);
  expect(response.data?.[999]?.comments[1]?.author.name).toBe('User 1');
  expect(response.data?.[0]).toBe(cache.selectQuery(store.getState(), Post, 'p0'));

  expect(problems(warn)).toEqual([]);
  expect(problems(error)).toEqual([]);
});

test('a second, changed response over the same large cache also logs nothing', () => {
  const { warn, error, cache, store } = setUp();
  store.dispatch(cache.setResponse(getPosts, {}, payload()));
  const changed = payload().map(post => ({ ...post, title: `${post.title} (edited)` }));
  store.dispatch(cache.setResponse(getPosts, {}, changed));
  store.dispatch({ type: 'unrelated/action' });

  expect(cache.selectQuery(store.getState(), Post, 'p500')?.title).toBe('Post 500 (edited)');
  expect(problems(warn)).toEqual([]);
  expect(problems(error)).toEqual([]);
});
