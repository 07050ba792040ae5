/**
 * lenscache/test's fetch stand-in (docs/testing.md) in Node, where `Response` exists: fixtures and
 * interceptors answer a store's requests through the endpoint's own steps, after their delay;
 * failures are stored as a real request's are; an unmatched request fails with FIXTURE_MISSING.
 */
import { configureStore } from '@reduxjs/toolkit';
import {
  createCache,
  Entity,
  isNetworkError,
  LensCacheError,
  RestEndpoint,
  type Cache,
  type RequestContext,
} from '../../src/index';
import { mockFetch, mockInitialState, type FixtureLike } from '../../src/test/index';

class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
const getPost = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts/:id', schema: Post });
const getPosts = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts', schema: [Post] });
const updatePost = getPost.extend({ method: 'PUT' });

function storeWith(fixtures: readonly FixtureLike[], cache: Cache = createCache()) {
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middlewareWith({ fetch: mockFetch(fixtures) })),
  });
  return { cache, store, controller: cache.controller(store) };
}

test('a fixture answers its request through the endpoint, process included', async () => {
  const titled = getPost.extend({
    process: (post: { title: string }) => ({ ...post, title: post.title.toUpperCase() }),
  });
  const { controller } = storeWith([{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'hi' } }]);
  // Another endpoint object with the same key is answered by the same fixture.
  await expect(controller.fetch(titled, { id: '1' })).resolves.toMatchObject({ id: '1', title: 'HI' });
  expect(controller.get(Post, { id: '1' })).toMatchObject({ title: 'HI' });
});

test('an interceptor computes its answer per request, from the args', async () => {
  let calls = 0;
  const { controller } = storeWith([
    { endpoint: getPost, response: ({ id }: { id: string }) => ({ id, title: `post ${id} #${++calls}` }) },
  ]);
  expect(await controller.fetch(getPost, { id: '1' })).toMatchObject({ title: 'post 1 #1' });
  expect(await controller.fetch(getPost, { id: '2' })).toMatchObject({ title: 'post 2 #2' });
  controller.invalidate(getPost, { id: '1' });
  expect(await controller.fetch(getPost, { id: '1' })).toMatchObject({ title: 'post 1 #3' });
});

test('a fixture wins over an interceptor; a mutation is matched with its body', async () => {
  const { controller } = storeWith([
    { endpoint: getPost, response: ({ id }: { id: string }) => ({ id, title: 'intercepted' }) },
    { endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'fixed' } },
    { endpoint: updatePost, args: [{ id: '1' }, { title: 'new' }], response: { id: '1', title: 'new' } },
  ]);
  expect(await controller.fetch(getPost, { id: '1' })).toMatchObject({ title: 'fixed' });
  expect(await controller.fetch(getPost, { id: '3' })).toMatchObject({ title: 'intercepted' });
  expect(await controller.fetch(updatePost, { id: '1' }, { title: 'new' })).toMatchObject({ title: 'new' });
  await expect(controller.fetch(updatePost, { id: '1' }, { title: 'other' })).rejects.toMatchObject({
    code: 'FIXTURE_MISSING',
  });
});

describe('delays', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  test('the answer comes after the fixture delay, not before', async () => {
    const { controller, cache, store } = storeWith([
      { endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'late' }, delay: 1_000 },
    ]);
    let settled = false;
    void controller.fetch(getPost, { id: '1' }).then(() => (settled = true));
    await jest.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    expect(cache.selectResponse(store.getState(), getPost, { id: '1' }).data).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(cache.selectResponse(store.getState(), getPost, { id: '1' }).data).toMatchObject({ title: 'late' });
  });
});

test('an error with a status is stored as the NetworkError a refusal gives', async () => {
  const { controller, cache, store } = storeWith([
    { endpoint: getPost, args: [{ id: '9' }], error: { status: 404, body: { message: 'No such post' } } },
  ]);
  const error = await controller.fetch(getPost, { id: '9' }).catch((caught: unknown) => caught);
  expect(isNetworkError(error)).toBe(true);
  expect(error).toMatchObject({ status: 404, code: 'NETWORK_ERROR', body: { message: 'No such post' } });
  expect(cache.selectResponse(store.getState(), getPost, { id: '9' }).error).toMatchObject({
    name: 'NetworkError',
    status: 404,
    code: 'NETWORK_ERROR',
  });
});

test('an error without a status is what fetch rejects with; an interceptor fails by throwing', async () => {
  const offline = new TypeError('Failed to fetch');
  const { controller } = storeWith([
    { endpoint: getPosts, args: [], error: offline },
    {
      endpoint: getPost,
      response: () => {
        throw { status: 422, body: { message: 'Too short' } };
      },
    },
  ]);
  await expect(controller.fetch(getPosts)).rejects.toBe(offline);
  await expect(controller.fetch(getPost, { id: '1' })).rejects.toMatchObject({ status: 422, code: 'NETWORK_ERROR' });
});

test('a request no fixture answers fails with FIXTURE_MISSING, naming the request and the fixtures', async () => {
  const { controller, cache, store } = storeWith([
    { endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'hi' } },
    { endpoint: getPosts, response: () => [] },
  ]);
  const error = (await controller.fetch(getPost, { id: '2' }).catch((caught: unknown) => caught)) as LensCacheError;
  expect(error).toBeInstanceOf(LensCacheError);
  expect(error.code).toBe('FIXTURE_MISSING');
  expect(error.message).toContain('No fixture answers the request GET https://api.example.com/posts/2');
  expect(error.message).toContain('- GET https://api.example.com/posts/1');
  expect(error.message).toContain('- GET /posts (interceptor)');
  expect(error.message).toContain('docs/errors.md#fixture_missing');
  expect(cache.selectResponse(store.getState(), getPost, { id: '2' }).error).toMatchObject({ code: 'FIXTURE_MISSING' });
});

test('bad input: not a list of fixtures, a bad status, a call without the request', async () => {
  expect(() => mockFetch({} as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  expect(() => mockFetch([{ args: [] }] as never)).toThrow(/takes a list of fixtures/);
  const { controller } = storeWith([{ endpoint: getPost, args: [{ id: '1' }], error: { status: 200 } }]);
  await expect(controller.fetch(getPost, { id: '1' })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  await expect(mockFetch([])('/posts', {})).rejects.toMatchObject({ code: 'INVALID_OPTION' });
});

describe('mockInitialState', () => {
  test("writes each fixture's answer with the cache given, at its reducerPath", () => {
    const cache = createCache({ reducerPath: 'api' });
    const state = mockInitialState(
      [
        { endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'hi' } },
        { endpoint: getPost, args: [{ id: '9' }], error: { status: 404, body: { message: 'No such post' } } },
        { endpoint: getPosts, response: () => [] },
      ],
      cache,
    );
    expect(Object.keys(state)).toEqual(['api']);
    expect(cache.selectResponse(state, getPost, { id: '1' })).toMatchObject({
      data: { title: 'hi' },
      expiryStatus: 'valid',
    });
    expect(cache.selectResponse(state, getPost, { id: '9' }).error).toMatchObject({
      status: 404,
      code: 'NETWORK_ERROR',
    });
    // The interceptor answers requests only.
    expect(Object.keys(state.api.meta).sort()).toEqual([
      'GET https://api.example.com/posts/1',
      'GET https://api.example.com/posts/9',
    ]);
  });

  test("defaults to a new cache at 'cache'; a store preloaded with it reads without a request", () => {
    const state = mockInitialState([{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'hi' } }]);
    const cache = createCache();
    const store = configureStore({
      reducer: { cache: cache.reducer },
      middleware: getDefault => getDefault().concat(cache.middlewareWith({ fetch: mockFetch([]) })),
      preloadedState: state,
    });
    const controller = cache.controller(store);
    expect(cache.reducerPath).toBe('cache');
    expect(controller.get(Post, { id: '1' })).toMatchObject({ title: 'hi' });
    // No fixture would answer a request: the stored answer is used.
    expect(controller.fetchIfStale(getPost, { id: '1' })).toMatchObject({ title: 'hi' });
  });
});

test("an endpoint of one's own is answered when its request sends with the store's fetch", async () => {
  const getUser = {
    key: (id: string) => `user ${id}`,
    async request(args: readonly unknown[], _signal?: AbortSignal, context?: RequestContext) {
      const send = context?.fetch ?? fetch;
      // text(), not json(): Node's Response parses in its own realm, which Jest's sandbox tells apart.
      return JSON.parse(await (await send(`/users/${String(args[0])}`, {}, context!)).text()) as unknown;
    },
  };
  const { controller } = storeWith([{ endpoint: getUser, response: (id: string) => ({ id, name: `user ${id}` }) }]);
  await expect(controller.fetch(getUser, '7')).resolves.toEqual({ id: '7', name: 'user 7' });
});
