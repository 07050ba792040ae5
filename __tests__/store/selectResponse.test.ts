/**
 * `cache.selectResponse` (see docs/store.md): data, expiry status, expiresAt and errors of an endpoint's
 * stored response, with the clock under the test's control; plus the ordering of endpoint entries.
 */
import { configureStore } from '@reduxjs/toolkit';
import { Invalidate, LensCacheError, createCache } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';

const getPosts = {
  key: (...args: unknown[]) => `GET /posts ${JSON.stringify(args[0] ?? {})}`,
  schema: [Post],
  dataExpiryLength: 1_000,
};
const getUser = {
  key: (...args: unknown[]) => `GET /users/${(args[0] as { id: string }).id}`,
  schema: User,
  dataExpiryLength: 1_000,
};

const payload = [
  { id: 'p1', title: 'One', author: { id: 'u1', name: 'Ada' } },
  { id: 'p2', title: 'Two', author: { id: 'u2', name: 'Bob' } },
];

let now = 10_000;
beforeEach(() => {
  now = 10_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => {
  jest.restoreAllMocks();
});

function setup() {
  const { cache, store } = makeStore();
  const slice = () => store.getState()[cache.reducerPath];
  return { cache, store, slice };
}

describe('data and expiry', () => {
  test('a stored response: data, expiresAt from meta, valid → stale after expiresAt', () => {
    const { cache, store, slice } = setup();
    store.dispatch(cache.setResponse(getPosts, {}, payload));
    expect(slice().meta['GET /posts {}']).toEqual({ fetchedAt: 10_000, date: 10_000, expiresAt: 11_000 });

    now = 10_500;
    const response = cache.selectResponse(store.getState(), getPosts, {});
    expect(response.expiryStatus).toBe('valid');
    expect(response.expiresAt).toBe(11_000);
    expect(response.error).toBeUndefined();
    expect(response.data?.map(post => post.title)).toEqual(['One', 'Two']);
    expect(response.data?.[0]).toBeInstanceOf(Post);
    expect(response.data?.[0]).toBe(cache.selectQuery(store.getState(), Post, 'p1'));
    expect(response.data?.[1]?.author).toBe(cache.selectQuery(store.getState(), User, 'u2'));

    now = 11_000;
    expect(cache.selectResponse(store.getState(), getPosts, {}).expiryStatus).toBe('valid');

    now = 11_001;
    const stale = cache.selectResponse(store.getState(), getPosts, {});
    expect(stale.expiryStatus).toBe('stale');
    expect(stale.expiresAt).toBe(11_000);
    expect(stale.data).toBe(response.data);
  });

  test('no stored result and a schema that cannot be queried: invalid, expiresAt 1', () => {
    const { cache, store } = setup();
    store.dispatch(cache.set([Post], payload));
    const response = cache.selectResponse(store.getState(), getPosts, {});
    expect(response).toEqual({ data: undefined, expiryStatus: 'invalid', expiresAt: 1, error: undefined });
  });

  test('args[0] === null skips: data undefined, valid, expiresAt Infinity', () => {
    const { cache, store } = setup();
    store.dispatch(cache.setResponse(getPosts, {}, payload));
    const response = cache.selectResponse(store.getState(), getPosts, null);
    expect(response).toEqual({ data: undefined, expiryStatus: 'valid', expiresAt: Infinity, error: undefined });
    expect(response.expiresAt).toBe(Infinity);
    expect(cache.selectResponse(store.getState(), getUser, null)).toEqual({
      data: undefined,
      expiryStatus: 'valid',
      expiresAt: Infinity,
      error: undefined,
    });
  });

  test('an Entity endpoint with no stored result is served from the cached row via its query key', () => {
    const { cache, store, slice } = setup();
    const missing = cache.selectResponse(store.getState(), getUser, { id: 'u1' });
    expect(missing).toEqual({ data: undefined, expiryStatus: 'invalid', expiresAt: 1, error: undefined });

    store.dispatch(cache.set(User, { id: 'u1', name: 'Ada' }));
    expect(slice().endpoints['GET /users/u1']).toBeUndefined();
    const response = cache.selectResponse(store.getState(), getUser, { id: 'u1' });
    expect(response.expiryStatus).toBe('valid');
    expect(response.data).toBeInstanceOf(User);
    expect(response.data).toBe(cache.selectQuery(store.getState(), User, 'u1'));
    // No meta for the key: the earliest expiresAt of the rows read; `set` rows expire after 60 s.
    expect(response.expiresAt).toBe(70_000);

    now = 70_001;
    const stale = cache.selectResponse(store.getState(), getUser, { id: 'u1' });
    expect(stale.expiryStatus).toBe('stale');
    expect(stale.data).toBe(response.data);
  });

  test('a stored result that reads as deleted is invalid, with data undefined', () => {
    const { cache, store } = setup();
    store.dispatch(cache.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Ada' }));
    expect(cache.selectResponse(store.getState(), getUser, { id: 'u1' }).expiryStatus).toBe('valid');
    store.dispatch(cache.set(new Invalidate(User), 'u1'));
    const response = cache.selectResponse(store.getState(), getUser, { id: 'u1' });
    expect(response.expiryStatus).toBe('invalid');
    expect(response.data).toBeUndefined();
  });
});

describe('errors', () => {
  test('a stored error is the original Error instance, with its code, on every read', () => {
    const { cache, store, slice } = setup();
    const error = Object.assign(new Error('boom'), { code: 'E_BOOM', status: 503 });
    store.dispatch(cache.setError(getPosts, {}, error));
    expect(slice().meta['GET /posts {}']).toEqual({
      fetchedAt: 10_000,
      date: 10_000,
      expiresAt: 11_000,
      error: { name: 'Error', message: 'boom', code: 'E_BOOM', status: 503 },
    });
    const first = cache.selectResponse(store.getState(), getPosts, {});
    expect(first.error).toBe(error);
    expect((first.error as Error & { code?: string }).code).toBe('E_BOOM');
    expect(cache.selectResponse(store.getState(), getPosts, {}).error).toBe(error);
    store.dispatch({ type: 'other/bump' });
    expect(cache.selectResponse(store.getState(), getPosts, {}).error).toBe(error);
  });

  test('an error given to resolve is stored the same way', () => {
    const { cache, store } = setup();
    const error = Object.assign(new Error('nope'), { code: 'E_NOPE' });
    store.dispatch(cache.resolve(getPosts, { args: [{}], error, fetchedAt: 9_000 }));
    const response = cache.selectResponse(store.getState(), getPosts, {});
    expect(response.error).toBe(error);
    expect(response.data).toBeUndefined();
  });

  test('an error rebuilt from a stored record is an Error with its code, the same instance each read', () => {
    const cache = createCache();
    const record = { name: 'NetworkError', message: 'Service unavailable', code: 'NETWORK_ERROR', status: 503 };
    const store = configureStore({
      reducer: { [cache.reducerPath]: cache.reducer },
      middleware: getDefault => getDefault().concat(cache.middleware),
      preloadedState: {
        cache: {
          entities: {},
          entitiesMeta: {},
          endpoints: {},
          meta: { 'GET /posts {}': { fetchedAt: 9_000, date: 9_000, expiresAt: 11_000, error: record } },
          lastReset: 0,
        },
      },
    });
    const first = cache.selectResponse(store.getState(), getPosts, {});
    expect(first.error).toBeInstanceOf(Error);
    expect(first.error).toBeInstanceOf(LensCacheError);
    expect(first.error?.message).toBe('Service unavailable');
    expect(first.error?.name).toBe('NetworkError');
    expect((first.error as LensCacheError).code).toBe('NETWORK_ERROR');
    expect((first.error as LensCacheError).status).toBe(503);
    expect(cache.selectResponse(store.getState(), getPosts, {}).error).toBe(first.error);
    expect(cache.selectResponse(store.getState(), getPosts, {})).toBe(first);
  });

  test('a response that fails to normalize stores its error and writes no rows', () => {
    const { cache, store, slice } = setup();
    const entitiesBefore = slice().entities;
    store.dispatch(cache.setResponse(getPosts, {}, [{ title: 'no id' }]));
    expect(slice().entities).toBe(entitiesBefore);
    expect(slice().endpoints['GET /posts {}']).toBeUndefined();
    const response = cache.selectResponse(store.getState(), getPosts, {});
    expect(response.error).toBeInstanceOf(LensCacheError);
    expect((response.error as LensCacheError).code).toBe('MISSING_PK');
    expect(cache.selectResponse(store.getState(), getPosts, {}).error).toBe(response.error);
  });
});

describe('identity of the returned object', () => {
  test('the same object while nothing it reports changed', () => {
    const { cache, store } = setup();
    store.dispatch(cache.setResponse(getPosts, {}, payload));
    const first = cache.selectResponse(store.getState(), getPosts, {});
    expect(cache.selectResponse(store.getState(), getPosts, {})).toBe(first);

    store.dispatch({ type: 'other/bump' });
    expect(cache.selectResponse(store.getState(), getPosts, {})).toBe(first);

    // Another endpoint, and rows this response does not read.
    store.dispatch(cache.setResponse(getUser, { id: 'u9' }, { id: 'u9', name: 'Nine' }));
    expect(cache.selectResponse(store.getState(), getPosts, {})).toBe(first);
  });

  test('a new object once the data changes, with unchanged members kept', () => {
    const { cache, store } = setup();
    store.dispatch(cache.setResponse(getPosts, {}, payload));
    const first = cache.selectResponse(store.getState(), getPosts, {});
    store.dispatch(cache.set(User, { id: 'u1', name: 'Ada Lovelace' }));
    const next = cache.selectResponse(store.getState(), getPosts, {});
    expect(next).not.toBe(first);
    expect(next.data).not.toBe(first.data);
    expect(next.data?.[0]).not.toBe(first.data?.[0]);
    expect(next.data?.[0]?.author.name).toBe('Ada Lovelace');
    expect(next.data?.[1]).toBe(first.data?.[1]);
    expect(next.expiryStatus).toBe('valid');
  });
});

describe('endpoint ordering', () => {
  test('an older resolve does not replace endpoints[key] or meta[key]; its rows follow the row rules', () => {
    const { cache, store, slice } = setup();
    const key = 'GET /posts {}';
    store.dispatch(
      cache.resolve(getPosts, { args: [{}], response: [{ id: 'p1', title: 'New', author: 'u1' }], fetchedAt: 2_000 }),
    );
    const endpoint = slice().endpoints[key];
    const meta = slice().meta[key];
    expect(endpoint).toEqual(['p1']);
    expect(meta).toEqual({ fetchedAt: 2_000, date: 10_000, expiresAt: 11_000 });

    now = 10_100;
    store.dispatch(
      cache.resolve(getPosts, {
        args: [{}],
        response: [
          { id: 'p1', title: 'Old', author: 'u1' },
          { id: 'p2', title: 'Only in the old one', author: 'u1' },
        ],
        fetchedAt: 1_000,
      }),
    );
    expect(slice().endpoints[key]).toBe(endpoint);
    expect(slice().meta[key]).toBe(meta);
    // Row by row: the stored p1 is newer and wins; p2 is new and is stored.
    expect(slice().entities['Post']?.['p1']).toEqual({ id: 'p1', title: 'New', author: 'u1' });
    expect(slice().entities['Post']?.['p2']).toEqual({ id: 'p2', title: 'Only in the old one', author: 'u1' });
    expect(cache.selectResponse(store.getState(), getPosts, {}).data?.map(post => post.id)).toEqual(['p1']);
  });

  test('an equal fetchedAt counts as newer and replaces the entry', () => {
    const { cache, store, slice } = setup();
    const key = 'GET /posts {}';
    store.dispatch(cache.resolve(getPosts, { args: [{}], response: [{ id: 'p1', author: 'u1' }], fetchedAt: 2_000 }));
    now = 10_100;
    store.dispatch(cache.resolve(getPosts, { args: [{}], response: [{ id: 'p2', author: 'u1' }], fetchedAt: 2_000 }));
    expect(slice().endpoints[key]).toEqual(['p2']);
    expect(slice().meta[key]).toEqual({ fetchedAt: 2_000, date: 10_100, expiresAt: 11_100 });
  });
});
